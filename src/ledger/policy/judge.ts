// What the team's rules say about a move or a change of the rules: pure functions of the rules and
// of who acts, so the money guard, `policy` and `approvals` all read the rules the same way.
import { formatMoney } from '../../output/format.js';
import { centsToDecimalString } from '../../validate/index.js';
import type { Actor } from '../actor.js';
import type { PolicyOperation, Rule, RuleChange, RuleSpec } from './types.js';

/** How long a request waits for a decision when its rule says nothing. */
export const DEFAULT_EXPIRY_HOURS = 24;

/** Whether `rule` is about `operation` done by `actor`. */
export function ruleApplies(rule: Pick<Rule, 'operation' | 'actor' | 'state'>, operation: PolicyOperation, actor: Pick<Actor, 'holder' | 'kind'>): boolean {
  if (rule.state !== 'active' || rule.operation !== operation) return false;
  switch (rule.actor) {
    case 'any':
      return true;
    case 'agent':
      return actor.kind === 'agent';
    case 'script':
      return actor.kind === 'script';
    default:
      return rule.actor === actor.holder;
  }
}

/**
 * A daily limit a move must stay within: counted for one operator (`holder`), one `payctl mcp`
 * session, or the team; an agents' rule counts only what agents sent.
 */
export interface DailyLimit {
  rule: Rule;
  capCents: number;
  holder?: string;
  session?: string;
  agentsOnly?: boolean;
}

/**
 * Whom a daily limit counts for this actor. `--per session` counts one `payctl mcp` session's
 * moves; an agent's shell has no session, so for it the limit counts each operator's agents (never
 * less than a session would).
 */
function limitOf(rule: Rule, actor: Pick<Actor, 'holder' | 'session'>): DailyLimit {
  const agentsOnly = rule.actor === 'agent' ? { agentsOnly: true } : {};
  const base = { rule, capCents: rule.amount_cents ?? 0, ...agentsOnly };
  if (rule.per === 'session' && actor.session !== undefined) return { ...base, session: actor.session };
  if (rule.per === 'operator' || rule.per === 'session') return { ...base, holder: actor.holder };
  return base;
}

/**
 * What the rules say about a move: sent (within the daily limits that apply); sent once the person
 * at an agent's MCP client confirms it (`confirm`; a client that cannot ask gets the approval
 * request `expiresMs` says); sent to a person for approval (`rule` null: an agent's move no rule
 * lets its client confirm); or blocked. `limits` on an approval: an agent that used up its day is
 * refused rather than queued.
 */
export type Judgement =
  | { kind: 'send'; limits: DailyLimit[] }
  | { kind: 'confirm'; rule: Rule; limits: DailyLimit[]; expiresMs: number }
  | { kind: 'approval'; rule: Rule | null; expiresMs: number; limits: DailyLimit[] }
  | { kind: 'blocked'; rule: Rule };

const expiryOf = (rule: Rule | undefined) => (rule?.expires_hours ?? DEFAULT_EXPIRY_HOURS) * 3_600_000;

/**
 * What the rules say about a move: blocked, sent to a person for approval, or sent within the
 * daily limits that apply. A block wins over an approval, an approval over limits (an approved
 * move is a person's decision). A move without an amount (a split change, a cancellation) is
 * caught by every amount rule that applies: the rule cannot tell it is below.
 *
 * An AI agent never moves money no person approved: each of its moves is an approval request,
 * unless a rule lets the person at its client confirm it (`--confirm-at-client-up-to`): up to the
 * smallest such amount of the rules that apply, and only when no --above rule catches it. An
 * --above rule for agents alone lets nothing through on its own: it bounds what the client may
 * confirm and how long requests wait. Agents' daily limits refuse (nothing sent) whatever else.
 */
export function judgeMove(rules: readonly Rule[], move: { operation: PolicyOperation; amountCents: number | null }, actor: Pick<Actor, 'holder' | 'kind' | 'session'>): Judgement {
  const applying = rules.filter((rule) => ruleApplies(rule, move.operation, actor));
  const block = applying.find((rule) => rule.kind === 'block');
  if (block) return { kind: 'blocked', rule: block };
  const limits = applying.filter((rule) => rule.kind === 'daily_limit').map((rule) => limitOf(rule, actor));
  const agent = actor.kind === 'agent';
  // The lowest threshold that the amount passes decides (its expiry is the one the request gets).
  const above = applying
    .filter((rule) => rule.kind === 'above' && (move.amountCents === null || move.amountCents > (rule.amount_cents ?? 0)))
    .sort((a, b) => (a.amount_cents ?? 0) - (b.amount_cents ?? 0))[0];
  if (above) return { kind: 'approval', rule: above, expiresMs: expiryOf(above), limits: agent ? limits : [] };
  if (!agent) return { kind: 'send', limits };
  const requestRule = applying.find((rule) => rule.kind === 'above');
  const confirming = applying.filter((rule) => rule.confirm_up_to_cents !== null).sort((a, b) => (a.confirm_up_to_cents ?? 0) - (b.confirm_up_to_cents ?? 0))[0];
  if (confirming && move.amountCents !== null && move.amountCents <= (confirming.confirm_up_to_cents ?? 0)) {
    return { kind: 'confirm', rule: confirming, limits, expiresMs: expiryOf(requestRule) };
  }
  return { kind: 'approval', rule: confirming ?? requestRule ?? null, expiresMs: expiryOf(requestRule), limits };
}

/** Why an agent's move waits for a person when no rule sent it there by its amount. */
export const AGENT_DEFAULT = "every money move by an AI agent needs a person's approval unless a rule lets the person at its client confirm it";

/** Whether two rules are the same rule with other numbers: an added one replaces the other. */
export function sameRule(a: RuleSpec, b: RuleSpec): boolean {
  return a.operation === b.operation && a.actor === b.actor && a.kind === b.kind && (a.per ?? null) === (b.per ?? null);
}

/**
 * Whether a change loosens the rules (another operator must approve it) or tightens them (it
 * takes effect at once). Removing a rule, raising an amount or a limit, a longer wait for a
 * decision and letting agents act on a client's confirmation loosen; a new rule tightens. With no
 * rule in force at all there is nothing to loosen: every change takes effect at once.
 */
export function judgeChange(active: readonly Rule[], change: RuleChange): 'tightens' | 'loosens' {
  const inForce = active.filter((rule) => rule.state === 'active');
  if (inForce.length === 0) return 'tightens';
  if (change.action === 'remove') return 'loosens';
  const next = change.rule;
  const old = inForce.find((rule) => (change.replaces ? rule.id === change.replaces : sameRule(rule, next)));
  if ((next.confirm_up_to_cents ?? 0) > (old?.confirm_up_to_cents ?? 0)) return 'loosens';
  if (!old) return 'tightens';
  if ((next.amount_cents ?? 0) > (old.amount_cents ?? 0)) return 'loosens';
  if (next.kind === 'above' && (next.expires_hours ?? DEFAULT_EXPIRY_HOURS) > (old.expires_hours ?? DEFAULT_EXPIRY_HOURS)) return 'loosens';
  return 'tightens';
}

const OPERATION_WORDS: Record<PolicyOperation, string> = {
  refund: 'refunds',
  capture: 'captures',
  create: 'new sales',
  'boleto-cancel': 'boleto cancellations',
  'invoice-refund': 'invoice refunds',
  'invoice-approve': 'invoice approvals',
  'split-change': 'split changes',
  'subscription-cancel': 'subscription cancellations',
  policy: 'changes of the rules',
};

function actorWords(actor: string): string {
  if (actor === 'any') return 'anyone';
  if (actor === 'agent') return 'AI agents';
  if (actor === 'script') return 'scripts (prompts off)';
  return actor;
}

const PER_WORDS: Record<NonNullable<RuleSpec['per']>, string> = { operator: 'for each operator', team: 'for the whole team', session: 'in each payctl mcp session' };

const money = (cents: number | null) => formatMoney(centsToDecimalString(cents ?? 0), 'BRL');

/** A rule in words: `refunds above R$ 500,00 by anyone need approval`. */
export function describeRule(rule: RuleSpec): string {
  const what = OPERATION_WORDS[rule.operation];
  const who = actorWords(rule.actor);
  const confirm = rule.confirm_up_to_cents ? `; up to ${money(rule.confirm_up_to_cents)} the person at the agent's client confirms instead` : '';
  switch (rule.kind) {
    case 'block':
      return `${what} by ${who} are blocked`;
    case 'above': {
      const wait = rule.expires_hours && rule.expires_hours !== DEFAULT_EXPIRY_HOURS ? ` (requests wait ${rule.expires_hours} h)` : '';
      return `${what} above ${money(rule.amount_cents)} by ${who} need approval${wait}${confirm}`;
    }
    case 'daily_limit':
      return `${what} by ${who}: at most ${money(rule.amount_cents)} a day ${PER_WORDS[rule.per ?? 'team']}${confirm}`;
  }
}
