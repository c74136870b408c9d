import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { holderAlive } from '../../platform/owner.js';
import { describeLock, ledgerOf } from './shared.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { unlock } from './flags.js';

/** A bare transaction id means its transaction's lock. */
function keyOf(given: string): string {
  const key = given.trim();
  if (/^[0-9a-f]{32}$/.test(key)) return `transaction:${key}`;
  if (!/^(transaction|reference|invoice|splits):\S+$/.test(key)) throw new UsageError(`<key>: "${key}" is not a lock; give transaction:<id>, reference:<ref>, invoice:<id>, or a transaction id ('payctl ledger show' names them)`);
  return key;
}

export async function run(ctx: Factory, args: ArgsOf<typeof unlock>, options: OptionsOf<typeof unlock>): Promise<void> {
  const key = keyOf(args[0] ?? '');
  if (options.force !== true) {
    throw new UsageError(`--force required to unlock ${key}: a lock held by a live payctl protects a money move in flight; unlock only one whose holder you know is gone`);
  }
  const ledger = await ledgerOf(ctx);
  const [lock] = await ledger.locks(key);
  if (!lock) {
    ctx.log.status(`${key} is not locked in the ledger ${ledger.where}; nothing to do`);
    return;
  }
  const alive = lock.host_id === ledger.me.host_id && holderAlive(lock, ledger.me);
  const broken = await ledger.breakLock(key);
  if (!broken) {
    ctx.log.status(`${key} was let go of meanwhile; nothing to do`);
    return;
  }
  if (alive) ctx.log.warn(`its holder (pid ${broken.pid}) still runs on this machine: a move it has in flight is no longer protected`);
  ctx.log.status(`Unlocked ${key}, held by ${describeLock(broken, ledger)}. The next money move on it checks first what that holder left unresolved.`);
}
