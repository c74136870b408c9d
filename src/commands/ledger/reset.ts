import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { LedgerLostError } from '../../ledger/errors.js';
import type { ArgsOf } from '../verb.js';
import type { reset } from './flags.js';

/**
 * `payctl ledger reset --yes`: a ledger this machine used is gone (deleted, emptied, damaged or
 * made anew): accept it and start a new one, so money can move again. What the lost one recorded is
 * then known only from the sales' own history (a refund a lost ledger knew of still shows in its
 * sale's history, and payctl still sees it there). A sound ledger is left as it is.
 */
export async function run(ctx: Factory, _args: ArgsOf<typeof reset>): Promise<void> {
  await ctx.service.requireApiKey();
  if (!ctx.globals.yes) throw new UsageError('--yes required to reset the ledger: moves the lost ledger recorded are then known only from the sales\' own history');
  const { openLedger, resetLedger, ledgerWhere } = await import('../../ledger/open.js');
  const { ledgerPlace } = await import('../../ledger-place.js');
  const { place, account, scrub } = await ledgerPlace(ctx.config, ctx.secrets);
  try {
    const ledger = await openLedger(place, account, scrub);
    await ledger.close();
    ctx.log.status(`The ledger ${ledgerWhere(place)} is there and is the one payctl keeps its moves in; nothing to reset.`);
    return;
  } catch (err) {
    if (!(err instanceof LedgerLostError)) throw err;
  }
  const { ledger, movedAside } = await resetLedger(place, account, scrub);
  await ledger.close();
  ctx.log.status(
    `Started a new ledger at ${ledger.where}${movedAside ? ` (the damaged one is kept as ${movedAside})` : ''}. Earlier moves are known only from the sales' own history from now on.`,
  );
}
