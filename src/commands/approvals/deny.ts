import type { Factory } from '../../factory.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { withoutControls } from '../../platform/control-chars.js';
import { optionalString } from '../shared/input.js';
import { bookOf, checkMayDecide, findRequest, notPending, requestIdOf, said } from './shared.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { deny } from './flags.js';

/** The longest reason kept: a sentence or two for whoever asked, not a document. */
const REASON_MAX = 500;

/** --reason as the requester will read it: one line, no control characters, not empty, not endless. */
export function reasonOf(given: string | undefined): string {
  const reason = withoutControls(given ?? '').trim();
  if (reason === '') throw new UsageError('--reason: say why, in words whoever asked will read (required)');
  if (reason.length > REASON_MAX) throw new UsageError(`--reason: keep it to ${REASON_MAX} characters (it has ${reason.length})`);
  return reason;
}

export function check(_args: ArgsOf<typeof deny>, options: OptionsOf<typeof deny>): void {
  if (options.reason !== undefined) reasonOf(options.reason);
}

/**
 * `payctl approvals deny <id> --reason <text>`: nothing is sent, and whoever asked is told why. The
 * same people may deny as may approve (not whoever asked, not an agent); a script may too, since
 * a denial moves no money.
 */
export async function run(ctx: Factory, args: ArgsOf<typeof deny>, options: OptionsOf<typeof deny>): Promise<void> {
  const id = requestIdOf(args[0]);
  const reason = reasonOf(optionalString(options.reason));
  const { ledger, book } = await bookOf(ctx);
  const request = await findRequest(book, ledger, id);
  checkMayDecide(ctx, ledger, request, 'deny');
  const why = notPending(request, ledger);
  if (why !== undefined) throw new CliError(why, ExitCode.auth);
  const denied = await book.deny(id, await ctx.actor(), reason, ledger.now());
  if (!denied.ok) throw new CliError(notPending(denied.request, ledger) ?? `request ${id} was decided by someone else meanwhile`, ExitCode.auth);
  ctx.log.status(`Denied request ${id} (${said(request.summary)}): nothing was sent.`);
}
