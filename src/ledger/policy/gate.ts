// The team's rules at the one place every money move passes: after the move is prepared (the
// resource read and checked, the person asked) and before its intent is written and sent. A move
// no rule catches goes on; one a rule sends to a person becomes an approval request (nothing sent,
// exit 13); one a rule blocks, or that would pass a daily limit, is refused (exit 4). A daily limit
// is counted from what the ledger sent since 00:00 in the account's time zone, and checked and
// recorded under the ledger's lock on the limit, so that two machines at once never pass it.
//
// A move sent for an approved request (`approvals approve`) is not judged again: it must be that
// request's move, exactly (operation, key, amount and the body's digest), or nothing is sent.
import { createHash } from 'node:crypto';
import { ApprovalPendingError, CliError, DeclinedAtClientError, ExitCode, InFlightError, PolicyRefusedError } from '../../errors.js';
import { formatMoney } from '../../output/format.js';
import { centsToDecimalString } from '../../validate/index.js';
import { localDateTime, nextDayStartIn, dayStartIn } from '../../time/zone.js';
import type { Actor, ConfirmAtClient } from '../actor.js';
import type { AskedMove, BatchRow, MoveGate, MoveTarget } from '../guard.js';
import type { Ledger } from '../ledger.js';
import type { Intent } from '../types.js';
import type { PolicyBook } from './book.js';
import { AGENT_DEFAULT, describeRule, judgeMove, ruleApplies, type DailyLimit } from './judge.js';
import { intentOperationsOf, policyOperationOf, type ApprovalRequest, type PolicyOperation, type Rule } from './types.js';

/** How long a move waits for another process to finish with a daily limit's lock before giving up (nothing sent). */
const LIMIT_LOCK_WAIT_MS = 10_000;
const LIMIT_LOCK_RETRY_MS = 50;
/** At most this many pending requests are read to find one for the same move (a rerun, a batch's rerun). */
const PENDING_READ = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface GateDeps {
  book: PolicyBook;
  ledger: Ledger;
  actor: Actor;
  /** The account's time zone (the profile's, or TZ): where a daily limit's day begins. */
  zone: string;
  /** The approved request `approvals approve` sends through this command, when it does. */
  approving?: ApprovalRequest | undefined;
  /** How the person at an agent's MCP client confirms a move a rule lets them confirm (`payctl mcp`). */
  confirmAtClient?: ConfirmAtClient | undefined;
}

/** A request waiting for a person: what the command reports, and exits 13 with. */
export class AwaitingApproval extends ApprovalPendingError {
  constructor(readonly request: ApprovalRequest, message: string) {
    super(message);
  }
}

/** sha256 of the body as sent: what ties an approval to exactly one move. */
export function bodyDigest(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body ?? null)).digest('hex');
}

function money(cents: number, currency?: string | null): string {
  return formatMoney(centsToDecimalString(cents), currency);
}

export class PolicyGate implements MoveGate {
  private rulesRead: Promise<Rule[]> | undefined;
  private pendingRead: Promise<ApprovalRequest[]> | undefined;
  /** The intent that sent the approved request, once written. */
  private approvedIntent: number | undefined;

  constructor(private readonly deps: GateDeps) {}

  /** The active rules, read once per command (a batch judges every row by the same rules). */
  private rules(): Promise<Rule[]> {
    this.rulesRead ??= this.deps.book.rules();
    return this.rulesRead;
  }

  /** Whether any rule applies to `intentOperation` by this actor (or an approved request is being sent): a batch then judges each row. */
  async judges(intentOperation: string): Promise<boolean> {
    if (this.deps.approving) return true;
    const operation = policyOperationOf(intentOperation);
    if (!operation) return false;
    // An agent's every move is judged: none goes without a person.
    if (this.deps.actor.kind === 'agent') return true;
    return (await this.rules()).some((rule) => ruleApplies(rule, operation, this.deps.actor));
  }

  async admit(what: MoveTarget, asked: AskedMove, record: () => Promise<Intent>, row?: BatchRow): Promise<Intent> {
    const operation = policyOperationOf(what.operation);
    const approving = this.deps.approving;
    if (approving) return this.sendApproved(approving, operation, what, asked, record);
    if (!operation) return record();
    const judged = judgeMove(await this.rules(), { operation, amountCents: asked.amountCents }, this.deps.actor);
    if (judged.kind === 'blocked') {
      throw new PolicyRefusedError(`${await asked.summary()}: not permitted by the team's policy (rule ${judged.rule.id}: ${describeRule(judged.rule)}); nothing was sent`);
    }
    if (judged.kind === 'approval' || judged.kind === 'confirm') {
      // An agent that used up its day is refused, not queued, nor its person asked.
      if (judged.limits.length > 0) await this.checkLimits(judged.limits, asked);
    }
    if (judged.kind === 'approval') throw await this.request(operation, what, asked, judged.rule, judged.expiresMs, row);
    if (judged.kind === 'confirm') {
      const answer = await this.confirmAtClient(asked);
      if (answer === 'unsupported') throw await this.request(operation, what, asked, judged.rule, judged.expiresMs, row, "the agent's client cannot ask its person to confirm");
    }
    if (judged.limits.length === 0) return record();
    return this.withinLimits(judged.limits, asked, record);
  }

  /**
   * Asks the person at the agent's MCP client to confirm the move: `accept` goes on; a decline, a
   * cancel or no answer in time is refused, nothing sent; `unsupported` (no client that can ask, as
   * an agent's shell) goes to an approval request.
   */
  private async confirmAtClient(asked: AskedMove): Promise<'accept' | 'unsupported'> {
    const confirm = this.deps.confirmAtClient;
    if (!confirm) return 'unsupported';
    const summary = await asked.summary();
    const answer = await confirm({ summary, amountCents: asked.amountCents, currency: asked.currency });
    if (answer === 'accept' || answer === 'unsupported') return answer;
    const how = answer === 'decline' ? 'declined it' : 'did not confirm it (cancelled, or no answer in time)';
    throw new DeclinedAtClientError(`${summary}: the person at the agent's client (${this.deps.actor.client ?? 'MCP client'}) ${how}; nothing was sent`);
  }

  async finished(intent: Intent, error?: unknown): Promise<void> {
    const approving = this.deps.approving;
    if (!approving || this.approvedIntent !== intent.id) return;
    const now = this.deps.ledger.now();
    if (error === undefined) await this.deps.book.settle(approving.id, 'sent', { intent_id: intent.id }, now);
    // Refused, or proven not applied: the approved move did not happen, and says why. An outcome
    // still unknown leaves the request approved: the next run on it settles what happened.
    else if (intent.state === 'refused' || intent.state === 'not_applied') {
      await this.deps.book.settle(approving.id, 'failed', { reason: error instanceof Error ? error.message : String(error), intent_id: intent.id }, now);
    }
  }

  async repeated(intent: Intent): Promise<void> {
    const approving = this.deps.approving;
    // An approver's earlier send of this request whose answer was lost, seen applied now.
    if (approving && policyOperationOf(intent.operation) === approving.operation && intent.key === approving.key && intent.amount_cents === approving.amount_cents) {
      await this.deps.book.settle(approving.id, 'sent', { intent_id: intent.id }, this.deps.ledger.now());
    }
  }

  /** The approved request's move, and only it: anything else fails with the reason, nothing sent. */
  private async sendApproved(request: ApprovalRequest, operation: PolicyOperation | undefined, what: MoveTarget, asked: AskedMove, record: () => Promise<Intent>): Promise<Intent> {
    const differs =
      operation !== request.operation
        ? `it is a ${operation ?? what.operation}, not a ${request.operation}`
        : what.key !== request.key
          ? `it is on ${what.key}, not ${request.key}`
          : asked.amountCents !== request.amount_cents
            ? `it would move ${asked.amountCents === null ? 'no amount' : money(asked.amountCents, asked.currency)} now, not the ${request.amount_cents === null ? 'no amount' : money(request.amount_cents, request.currency)} approved`
            : bodyDigest(asked.body) !== request.digest
              ? 'what it would send now is not what was approved (its body differs)'
              : undefined;
    if (differs) {
      const reason = `the move no longer stands as approved: ${differs}`;
      await this.deps.book.settle(request.id, 'failed', { reason }, this.deps.ledger.now());
      throw new CliError(`request ${request.id} was not sent: ${reason}; nothing was sent. The requester may ask again`, ExitCode.rejected);
    }
    const intent = await record();
    this.approvedIntent = intent.id;
    return intent;
  }

  /** Records the move as a request (or finds the one a rerun of it made, still pending) and says so: exit 13. */
  private async request(operation: PolicyOperation, what: MoveTarget, asked: AskedMove, rule: Rule | null, expiresMs: number, row?: BatchRow, because?: string): Promise<AwaitingApproval> {
    const digest = bodyDigest(asked.body);
    const { actor } = this.deps;
    const same = (r: ApprovalRequest) => r.state === 'pending' && r.operation === operation && r.key === what.key && r.amount_cents === asked.amountCents && r.digest === digest && r.requester === actor.holder && r.requester_kind === actor.kind;
    const earlier = (await this.pending()).find(same);
    const request =
      earlier ??
      (await this.deps.book.createRequest(
        {
          operation,
          key: what.key,
          target: what.target,
          amount_cents: asked.amountCents,
          currency: asked.currency,
          digest,
          summary: await asked.summary(),
          replay: asked.replay,
          change: null,
          batch: row?.batch ?? null,
          batch_name: row?.batch_name ?? null,
          row: row?.row ?? null,
          rule_id: rule?.id ?? null,
          expires_at: this.deps.ledger.now() + expiresMs,
        },
        actor,
        this.deps.ledger.now(),
      ));
    if (!earlier) (await this.pending()).push(request);
    const until = localDateTime(this.deps.ledger.local(request.expires_at));
    const again = earlier ? ' (asked before, still pending)' : '';
    const why = [rule ? `rule ${rule.id}: ${describeRule(rule)}` : AGENT_DEFAULT, ...(because ? [because] : [])].join('; ');
    const needs = actor.kind === 'agent' ? "needs a person's approval" : 'needs a second person';
    return new AwaitingApproval(
      request,
      `waiting for approval: ${request.summary} ${needs} (${why}); nothing was sent. Request ${request.id}${again}, until ${until}: a person approves it with payctl approvals approve ${request.id}; payctl approvals show ${request.id}`,
    );
  }

  /** Pending requests, read once: a rerun (or a batch's rerun) finds its own instead of asking twice. */
  private pending(): Promise<ApprovalRequest[]> {
    this.pendingRead ??= this.deps.book.requests({ states: ['pending'], limit: PENDING_READ }, this.deps.ledger.now());
    return this.pendingRead;
  }

  /**
   * Checks each daily limit and writes the intent while holding the limit's lock: what was sent
   * today and this move are counted and recorded as one step, on every machine sharing the ledger.
   */
  private async withinLimits(limits: DailyLimit[], asked: AskedMove, record: () => Promise<Intent>): Promise<Intent> {
    const keys = limits.map(limitKey).sort();
    const held: string[] = [];
    try {
      for (const key of keys) {
        await this.holdLimit(key);
        held.push(key);
      }
      await this.checkLimits(limits, asked);
      return await record();
    } finally {
      for (const key of held) await this.deps.ledger.release(key).catch(() => undefined);
    }
  }

  /** Refuses the move (exit 4, nothing sent) when it would pass one of `limits`, counted from what the ledger sent today. */
  private async checkLimits(limits: DailyLimit[], asked: AskedMove): Promise<void> {
    const now = this.deps.ledger.now();
    const since = dayStartIn(now, this.deps.zone);
    const amount = asked.amountCents ?? 0;
    for (const limit of limits) {
      const sent = await this.deps.book.sentSince(intentOperationsOf(limit.rule.operation), since, { holder: limit.holder, session: limit.session, agentsOnly: limit.agentsOnly });
      if (sent + amount > limit.capCents) {
        const left = Math.max(0, limit.capCents - sent);
        const resets = localDateTime(this.deps.ledger.local(nextDayStartIn(now, this.deps.zone)));
        const whose = limit.session ? "this payctl mcp session's" : `${limit.holder ? `${limit.holder}'s` : "the team's"}${limit.agentsOnly ? " agents'" : ''}`;
        throw new PolicyRefusedError(
          `${await asked.summary()}: not permitted by the team's policy: it would pass ${whose} daily limit (rule ${limit.rule.id}: ${describeRule(limit.rule)}); ${money(left, asked.currency)} is left today, until the limit resets at ${resets}; nothing was sent`,
        );
      }
    }
  }

  /** The lock on a daily limit: another process (or worker) holding it is waited for, briefly. */
  private async holdLimit(key: string): Promise<void> {
    const until = Date.now() + LIMIT_LOCK_WAIT_MS;
    for (;;) {
      const claim = await this.deps.ledger.claim(key);
      if (claim.ok) return;
      if (Date.now() >= until) {
        throw new InFlightError(`the daily limit ${key.split(':')[1]} is being counted by another payctl (${claim.holder.holder}, pid ${claim.holder.pid}) for longer than ${LIMIT_LOCK_WAIT_MS / 1000} s; nothing was sent. Run the same command again`);
      }
      await sleep(LIMIT_LOCK_RETRY_MS + Math.floor(Math.random() * LIMIT_LOCK_RETRY_MS));
    }
  }
}

/** `limit:<rule-id>` for the team, `limit:<rule-id>:<holder>` for one operator, `limit:<rule-id>:<session>` for one session. */
function limitKey(limit: DailyLimit): string {
  const whose = limit.session ?? limit.holder;
  return whose ? `limit:${limit.rule.id}:${whose}` : `limit:${limit.rule.id}`;
}
