import { Writable } from 'node:stream';
import { CommanderError } from 'commander';
import type { Factory, NestedRun } from '../../factory.js';
import { ApiError, CliError, ExitCode, NotAllowedError, PolicyRefusedError, ProbableDuplicateError } from '../../errors.js';
import type { IO } from '../../io.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { PolicyBook } from '../../ledger/policy/book.js';
import { intentOperationsOf, type ApprovalRequest } from '../../ledger/policy/types.js';
import { withoutControls } from '../../platform/control-chars.js';

/** How sending an approved request ended, as the ledger now records it. */
export type SendOutcome = { state: 'sent'; intentId: number } | { state: 'failed'; reason: string };

/**
 * A failure of the command that settles the request as failed: the move, as asked, no longer
 * stands or was refused, and nothing was sent (the sale no longer allows it, the service refused
 * it, payctl already made it, the money guard found it no longer matches the request, its words
 * cannot be read). Anything else (the outcome unknown, the service or the ledger out of reach, an
 * interruption) leaves it approved by this approver, who runs approve again to finish it.
 */
function settlesAsFailed(err: unknown): boolean {
  if (err instanceof CommanderError) return true;
  if (err instanceof NotAllowedError || err instanceof ProbableDuplicateError) return true;
  if (err instanceof ApiError) return err.details.httpStatus >= 400 && err.details.httpStatus < 500 && err.details.httpStatus !== 401 && err.details.httpStatus !== 429;
  return err instanceof PolicyRefusedError || (err instanceof CliError && (err.exitCode === ExitCode.rejected || err.exitCode === ExitCode.notFound));
}

/** Output nobody reads: a batch prints one line of its own for each request. */
function quietIo(io: IO): IO {
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  return { ...io, stdout: sink, stdoutIsTTY: false };
}

/**
 * The intent this approver's send of `request` wrote and saw applied: after it took the request,
 * on its key, of its operation. None when the command sent nothing (it found the move already
 * made, or nothing left to move).
 */
async function sentIntent(ledger: Ledger, request: ApprovalRequest): Promise<number | undefined> {
  const operations = intentOperationsOf(request.operation);
  const since = request.decided_at ?? request.created_at;
  // A move without a key (a sale's create is keyed by what it creates): the ledger's newest since then.
  const intents = request.key === null ? await ledger.list({ states: ['applied'], since, limit: 1000 }) : await ledger.intentsOn([request.key]);
  const ours = intents.filter((i) => i.state === 'applied' && operations.includes(i.operation) && i.holder === ledger.me.holder && i.created_at >= since);
  return ours.sort((a, b) => b.created_at - a.created_at)[0]?.id;
}

/**
 * Sends an approved request through its own command, with the words it was asked with (its
 * replay), as that command runs for a user, with `approving` set on its Factory: the money guard
 * then checks the move is the one asked for instead of judging it by the rules, and the command
 * reads the sale again itself. A move that no longer stands fails with the command's reason and is
 * never sent with another amount. Settles the request (sent, with its intent; or failed, with why).
 * `batch`: the command prints nothing of its own (the batch prints a line per request).
 */
export async function sendApproved(ctx: Factory, ledger: Ledger, book: PolicyBook, request: ApprovalRequest, batch = false): Promise<SendOutcome> {
  const words = request.replay;
  if (words === null) throw new CliError(`request ${request.id} holds no command to send it by; nothing was sent`, ExitCode.rejected);
  // Taken by this approver before, whose command ended once its move was applied but before the
  // request was settled: it was sent (the command would now call it a duplicate, or too much).
  const earlier = await sentIntent(ledger, request);
  if (earlier !== undefined) {
    await book.settle(request.id, 'sent', { intent_id: earlier }, ledger.now());
    return { state: 'sent', intentId: earlier };
  }
  const nested: NestedRun = {
    approving: request,
    // The approver confirmed by typing the amount back; nothing else may be asked in between.
    globals: { ...ctx.globals, yes: true, input: false, ...(batch ? { quiet: true } : {}) },
    ...(batch ? { io: quietIo(ctx.io) } : {}),
  };
  let reason: string | undefined;
  try {
    await ctx.commandTree(nested, words).parseAsync([...words], { from: 'user' });
  } catch (err) {
    if (!settlesAsFailed(err)) throw stillApproved(err, request);
    // The money guard's own refusal of a move that no longer matches the request names the request already.
    reason = withoutControls((err as Error).message).replace(`request ${request.id} was not sent: `, '');
  } finally {
    await nested.factory?.close();
  }
  if (reason === undefined) {
    const intentId = await sentIntent(ledger, request);
    if (intentId !== undefined) {
      await book.settle(request.id, 'sent', { intent_id: intentId }, ledger.now());
      return { state: 'sent', intentId };
    }
    reason = 'the command sent nothing: it found the move already made, or nothing left to move';
  }
  await book.settle(request.id, 'failed', { reason }, ledger.now());
  return { state: 'failed', reason };
}

/** A send that could not tell or could not try: the request stays approved by this approver, who finishes it by approving again. */
function stillApproved(err: unknown, request: ApprovalRequest): unknown {
  if (!(err instanceof CliError)) return err;
  return new CliError(
    `${err.message}. Request ${request.id} stays approved by you: run 'payctl approvals approve ${request.id}' again to finish it (the ledger sends it at most once)`,
    err.exitCode,
    { cause: err },
  );
}
