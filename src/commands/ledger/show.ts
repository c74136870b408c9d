import type { Factory } from '../../factory.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { SaleFinder } from '../transactions/reference.js';
import { INTENT_COLUMNS, describeLock, intentTableRow, intentView, lockView, readLedger } from './shared.js';
import type { ArgsOf } from '../verb.js';
import type { show } from './flags.js';

const ID = /^[0-9a-f]{32}$/;

/** The keys a transaction id or a reference may stand for in the ledger. */
function keysFor(target: string): string[] {
  return ID.test(target) ? [`transaction:${target}`, `invoice:${target}`, `splits:${target}`] : [`reference:${target}`];
}

export async function run(ctx: Factory, args: ArgsOf<typeof show>): Promise<void> {
  const target = (args[0] ?? '').trim();
  if (target === '' || /[\u0000-\u001f\u007f]/.test(target)) throw new UsageError('<transaction-or-reference>: give a transaction id or a reference_id');
  await readLedger(ctx, async (ledger) => {
    if (!ledger) throw new UsageError(`there is no ledger to show a money move from; 'payctl ledger reset --yes' starts a new one`);
    const keys = keysFor(target);
    // A reference stands for its transaction too (transactions/reference.ts): the refunds and
    // captures of the sale are under the transaction's id. Without the service, what the ledger
    // holds under the reference itself is still shown.
    if (!ID.test(target)) {
      try {
        keys.push(...keysFor(await new SaleFinder(ctx, { where: '<transaction-or-reference>', suggest: false }).saleId(target)));
      } catch (err) {
        if (err instanceof UsageError) throw err;
        if (!(err instanceof CliError && err.exitCode === ExitCode.notFound)) ctx.log.warn(`could not look up the transaction with reference_id ${target} (${(err as Error).message}); showing what the ledger holds under the reference`);
      }
    }
    const intents = await ledger.intentsOn(keys);
    const locks = (await Promise.all(keys.map((key) => ledger.locks(key)))).flat();
    if (intents.length === 0 && locks.length === 0) throw new UsageError(`the ledger ${ledger.where} has no money move on ${target}`);
    const format = await ctx.out.outputFormat();
    if (format === 'json') {
      await ctx.out.render({ target, intents: intents.map((i) => intentView(i, ledger)), locks: locks.map((l) => lockView(l, ledger)) });
      return;
    }
    await ctx.out.renderRows(intents.map((i) => intentView(i, ledger)), INTENT_COLUMNS, intentTableRow);
    for (const lock of locks) ctx.log.status(`${lock.key} is held by ${describeLock(lock, ledger)}`);
  });
}
