// The team's policy, kept in the ledger beside the intents it rules: rules (by operation and by
// who acts: an amount above which a second person approves, a daily limit, a block) and approval
// requests (a move a rule caught, or a change that loosens the rules, waiting for another person).
// Scoped like intents: by the account, so every operator of an account shares them.
import type { ActorKind } from '../actor.js';

/** What a rule may be about: the money moves payctl makes, and the policy itself. */
export const POLICY_OPERATIONS = ['refund', 'capture', 'create', 'boleto-cancel', 'invoice-refund', 'invoice-approve', 'split-change', 'subscription-cancel', 'policy'] as const;
export type PolicyOperation = (typeof POLICY_OPERATIONS)[number];

/** The ledger's intent operations each policy operation covers (what a daily limit counts). */
const INTENT_OPERATIONS: Record<Exclude<PolicyOperation, 'policy'>, readonly string[]> = {
  refund: ['transactions.void'],
  capture: ['transactions.capture'],
  create: ['transactions.create'],
  'boleto-cancel': ['boletos.cancel'],
  'invoice-refund': ['invoices.refund'],
  'invoice-approve': ['invoices.approve'],
  'split-change': ['transactions.splits.add', 'transactions.splits.remove'],
  'subscription-cancel': ['subscriptions.remove'],
};

export function intentOperationsOf(operation: PolicyOperation): readonly string[] {
  return operation === 'policy' ? [] : INTENT_OPERATIONS[operation];
}

/** The policy operation of a ledger intent's operation (`transactions.void` → `refund`), if a rule can be about it. */
export function policyOperationOf(intentOperation: string): PolicyOperation | undefined {
  for (const [operation, covered] of Object.entries(INTENT_OPERATIONS)) if (covered.includes(intentOperation)) return operation as PolicyOperation;
  return undefined;
}

export type RuleKind = 'above' | 'daily_limit' | 'block';

/** A rule as someone asks for it. */
export interface RuleSpec {
  operation: PolicyOperation;
  /** Whom it is about: `any`, `agent`, `script` (prompts off), or one operator's `user@host`. */
  actor: string;
  kind: RuleKind;
  /** above: moves of more than this need approval; daily_limit: at most this in a day; block: null. */
  amount_cents: number | null;
  /** daily_limit: counted for each operator, for the whole team, or (agents) for each `payctl mcp` session. */
  per: 'operator' | 'team' | 'session' | null;
  /** above: how long its requests wait for a decision (null: 24 h). */
  expires_hours: number | null;
  /** Agents: up to this, the person at the MCP client confirms instead of an approval request. */
  confirm_up_to_cents: number | null;
}

export interface Rule extends RuleSpec {
  /** `rule_` and eight letters and digits. */
  id: string;
  state: 'active' | 'removed';
  set_by: string;
  set_by_name: string | null;
  set_at: number;
  /** Who approved it, when it loosened the rules (null: it took effect at once). */
  approved_by: string | null;
  approved_by_name: string | null;
  approved_at: number | null;
  removed_by: string | null;
  removed_by_name: string | null;
  removed_at: number | null;
}

/** A change of the rules: a rule added (replacing one of the same operation, actor and kind), or one removed. */
export type RuleChange = { action: 'add'; rule: RuleSpec; replaces?: string } | { action: 'remove'; rule: string };

/** `expired` is never written: it is a pending request read after its expiry. `approved`: taken by an approver, being sent. */
export type RequestState = 'pending' | 'approved' | 'denied' | 'expired' | 'sent' | 'failed';
export const REQUEST_STATES: readonly RequestState[] = ['pending', 'approved', 'denied', 'expired', 'sent', 'failed'];

export interface ApprovalRequest {
  /** `apr_` and eight letters and digits. */
  id: string;
  operation: PolicyOperation;
  /** What the ledger locks while it moves (`transaction:<id>`), and what it moves. */
  key: string | null;
  target: string | null;
  amount_cents: number | null;
  currency: string | null;
  /** sha256 of the body to send: what an approver's send must match. */
  digest: string | null;
  /** The move as a person reads it: `Refund R$ 600,00 of transaction … (Visa ••••1111, Maria Silva)`. */
  summary: string;
  /** The command words that send exactly this move (`transactions refund <id> --amount-cents 60000`). */
  replay: string[] | null;
  /** A change of the rules (operation `policy`). */
  change: RuleChange | null;
  batch: string | null;
  batch_name: string | null;
  row: number | null;
  rule_id: string | null;
  requester: string;
  requester_name: string | null;
  requester_kind: ActorKind;
  /** The AI agent that asked (its MCP client's name, or its shell's signal), or null. */
  requester_agent: string | null;
  state: RequestState;
  created_at: number;
  expires_at: number;
  updated_at: number;
  decided_by: string | null;
  decided_by_name: string | null;
  decided_at: number | null;
  /** Why it was denied, or why sending it failed. */
  reason: string | null;
  /** The intent that sent it. */
  intent_id: number | null;
}

/** What a requester records; the book gives the id, the state and the times. */
export type NewRequest = Pick<ApprovalRequest, 'operation' | 'summary' | 'expires_at'> &
  Partial<Pick<ApprovalRequest, 'key' | 'target' | 'amount_cents' | 'currency' | 'digest' | 'replay' | 'change' | 'batch' | 'batch_name' | 'row' | 'rule_id'>>;

export interface RequestFilter {
  states?: RequestState[];
  /** A batch's id or its name. */
  batch?: string;
  limit: number;
}
