import type { Factory } from '../../factory.js';
import { CliError, ExitCode, OutcomeUnknownError, PolicyRefusedError } from '../../errors.js';
import { operatorLabel } from '../../ledger/actor.js';
import type { Ledger } from '../../ledger/ledger.js';
import { isoTime } from '../../ledger/time.js';
import { withoutControls } from '../../platform/control-chars.js';
import type { ApprovalRequest } from '../../ledger/policy/types.js';
import { noteWhileInFlight } from '../../platform/interrupt.js';
import { localDateTime } from '../../time/zone.js';

// A money move a rule of the team's policy sent to a person (src/ledger/policy/gate.ts): the
// command exits 13 naming the request, and prints it for scripts (-o json, or stdout not a
// terminal); with --wait it waits for the decision instead, a countdown to the request's expiry on
// a terminal (a line saying until when elsewhere), and reports what became of it.

/** How often a waiting command reads the request: soon at first, then every few seconds. */
const FIRST_POLL_MS = 1_000;
const MAX_POLL_MS = 5_000;
/** An approved request is being sent by its approver: waited for this long past its expiry, at most. */
const SENDING_GRACE_MS = 5 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A request as a script reads it when a command exits 13 (a money move, or a change of the rules):
 * its fields, with times as ISO instants on this machine's clock.
 */
export function requestShown(request: ApprovalRequest, ledger: Pick<Ledger, 'local'>): Record<string, unknown> {
  const at = (ms: number | null) => (ms === null ? null : isoTime(ledger.local(ms)));
  return { ...request, created_at: at(request.created_at), updated_at: at(request.updated_at), expires_at: at(request.expires_at), decided_at: at(request.decided_at) };
}

/** The request `err` carries, when it is a move waiting for approval. */
function waitingRequest(err: unknown): ApprovalRequest | undefined {
  const request = (err as { request?: ApprovalRequest } | null)?.request;
  return err instanceof CliError && err.exitCode === ExitCode.approvalPending && request ? request : undefined;
}

/**
 * Runs a money move; when a rule sends it for approval, prints the request for scripts and exits
 * 13, or with `wait` waits for the decision: sent (the approver's send, reported by `sent` as the
 * command reports its own), denied or expired (exit 4), failed (exit 6).
 */
export async function underApproval(ctx: Factory, wait: boolean, move: () => Promise<void>, sent: (request: ApprovalRequest) => Promise<void>): Promise<void> {
  try {
    await move();
  } catch (err) {
    const request = waitingRequest(err);
    if (!request) throw err;
    if (!wait) {
      if ((await ctx.out.outputFormat()) !== 'table') await ctx.out.render(requestShown(request, (await ctx.moneyGuard()).ledger));
      throw err;
    }
    ctx.log.status((err as Error).message);
    const decided = await waitForDecision(ctx, request);
    if (decided.state === 'sent') {
      await sent(decided);
      ctx.log.status(`Request ${decided.id} was approved by ${who(decided)} and sent.`);
      return;
    }
    if ((await ctx.out.outputFormat()) !== 'table') await ctx.out.render(requestShown(decided, (await ctx.moneyGuard()).ledger));
    throw outcomeError(decided);
  }
}

/** Who decided, as a person reads it: written on another machine, so cleaned of control characters. */
function who(request: ApprovalRequest): string {
  return withoutControls(operatorLabel({ holder: request.decided_by ?? 'another operator', name: request.decided_by_name }));
}

/** What a decided request means for the command that asked: the exit code and why. */
function outcomeError(request: ApprovalRequest): CliError {
  switch (request.state) {
    case 'denied':
      return new PolicyRefusedError(`request ${request.id} was denied by ${who(request)}${request.reason ? `: ${request.reason}` : ''}; nothing was sent`);
    case 'expired':
      return new PolicyRefusedError(`request ${request.id} expired at ${localDateTime(request.expires_at)} without a decision; nothing was sent. Ask again by running the same command`);
    case 'failed':
      return new CliError(`request ${request.id} was approved by ${who(request)}, but not sent: ${request.reason ?? 'the move no longer stands'}`, ExitCode.rejected);
    default:
      return new OutcomeUnknownError(`request ${request.id} was approved by ${who(request)} and is still being sent; check with: payctl approvals show ${request.id}`);
  }
}

/**
 * Reads the request until it is decided and done with (sent, denied, expired, failed), or, while
 * its approver is sending it, a while past its expiry. Ctrl-C stops the wait (exit 3), saying the
 * request is still there.
 */
async function waitForDecision(ctx: Factory, asked: ApprovalRequest): Promise<ApprovalRequest> {
  const guard = await ctx.moneyGuard();
  const { ledger } = guard;
  const book = ledger.policy;
  const { countdown } = await import('../../output/countdown.js');
  const stop = countdown(ctx.io.stderr, ctx.io.stderrIsTTY && !ctx.globals.quiet, ctx.log.warn, `waiting for a decision on request ${asked.id}`, ledger.local(asked.expires_at));
  const note = `stopped waiting; request ${asked.id} is still pending, and is sent if approved. Check with: payctl approvals show ${asked.id}`;
  try {
    return await noteWhileInFlight(note, async () => {
      let pause = FIRST_POLL_MS;
      for (;;) {
        // Read again soon after the expiry, too: an expired request is said at once.
        const toExpiry = asked.expires_at - ledger.now();
        await sleep(toExpiry >= 0 ? Math.min(pause, toExpiry + 50) : pause);
        pause = Math.min(MAX_POLL_MS, pause * 2);
        const now = await book.request(asked.id, ledger.now());
        if (!now) throw new CliError(`request ${asked.id} is no longer in the ledger ${ledger.where}; nothing was sent by this command`, ExitCode.notFound);
        if (now.state !== 'pending' && now.state !== 'approved') return now;
        if (now.state === 'approved' && ledger.now() > now.expires_at + SENDING_GRACE_MS) return now;
      }
    });
  } finally {
    stop();
  }
}
