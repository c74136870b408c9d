import { operatorLabel } from '../../ledger/actor.js';
import type { Ledger } from '../../ledger/ledger.js';
import { describeRule } from '../../ledger/policy/judge.js';
import type { ApprovalRequest, Rule, RuleSpec } from '../../ledger/policy/types.js';
import { isoTime } from '../../ledger/time.js';
import type { Column } from '../../output/render-options.js';
import { centsToDecimalString } from '../../validate/index.js';

// Rules, and the changes of them that wait for approval, as `policy list` and `policy add` print
// them: one shape for both, so a list of them is one JSON array, one CSV, one table. Times are ISO
// (UTC) and amounts decimal strings, as for every record; a table reads them in words and the
// local clock.

const money = (cents: number | null) => (cents === null ? null : centsToDecimalString(cents));
const at = (ledger: Ledger, ms: number | null) => (ms === null ? null : isoTime(ledger.local(ms)));

/** What a rule says, as its flags said it, and in words. */
function specView(spec: RuleSpec | undefined): Record<string, unknown> {
  return {
    rule: spec ? describeRule(spec) : null,
    operation: spec?.operation ?? null,
    actor: spec?.actor ?? null,
    kind: spec?.kind ?? null,
    amount: money(spec?.amount_cents ?? null),
    per: spec?.per ?? null,
    expires_hours: spec?.expires_hours ?? null,
    confirm_at_client_up_to: money(spec?.confirm_up_to_cents ?? null),
  };
}

/** A rule: what it says, who set it and when, who approved it (null: it took effect at once), who removed it. */
export function ruleView(rule: Rule, ledger: Ledger): Record<string, unknown> {
  return {
    id: rule.id,
    state: rule.state,
    ...specView(rule),
    set_by: rule.set_by,
    set_by_name: rule.set_by_name,
    set_at: at(ledger, rule.set_at),
    approved_by: rule.approved_by,
    approved_by_name: rule.approved_by_name,
    approved_at: at(ledger, rule.approved_at),
    removed_by: rule.removed_by,
    removed_by_name: rule.removed_by_name,
    removed_at: at(ledger, rule.removed_at),
    change: null,
    changes_rule: null,
    expires_at: null,
  };
}

/**
 * A change of the rules waiting for approval (a request of operation `policy`): the rule it adds,
 * or the one it removes; `change` says which, `changes_rule` the rule it replaces or removes; who
 * asked and when, and until when it waits.
 */
export function changeView(request: ApprovalRequest, rules: readonly Rule[], ledger: Ledger): Record<string, unknown> {
  const change = request.change;
  const touched = change === null ? null : change.action === 'remove' ? change.rule : (change.replaces ?? null);
  return {
    id: request.id,
    state: request.state,
    ...specView(change?.action === 'add' ? change.rule : rules.find((rule) => rule.id === touched)),
    set_by: request.requester,
    set_by_name: request.requester_name,
    set_at: at(ledger, request.created_at),
    approved_by: null,
    approved_by_name: null,
    approved_at: null,
    removed_by: null,
    removed_by_name: null,
    removed_at: null,
    change: change?.action ?? null,
    changes_rule: touched,
    expires_at: at(ledger, request.expires_at),
  };
}

/** `Ana Souza (ana@caixa-2)`, or the holder alone. */
const who = (holder: unknown, name: unknown) => (typeof holder === 'string' ? operatorLabel({ holder, name: typeof name === 'string' ? name : null }) : '');

/** On a terminal: a change said as one, who set a rule, who approved it (or that the change waits). */
export function tableRow(row: Record<string, unknown>): Record<string, unknown> {
  const rule = row.change === 'remove' ? `remove ${String(row.changes_rule)}: ${String(row.rule ?? '')}` : row.changes_rule ? `${String(row.rule)} (instead of ${String(row.changes_rule)})` : row.rule;
  const approved = row.state === 'pending' ? 'waiting' : typeof row.approved_by === 'string' ? who(row.approved_by, row.approved_by_name) : 'in force at once';
  return { ...row, rule, set: who(row.set_by, row.set_by_name), approved };
}

/**
 * A rule in words is never cut (cut short, it says another rule): on a narrow terminal the names
 * give way first, then rows go as blocks of "HEADER value" lines.
 */
export const RULE_COLUMNS: Column[] = [
  { key: 'id', header: 'ID', kind: 'id' },
  { key: 'rule', header: 'RULE', kind: 'id' },
  { key: 'state', header: 'STATE', kind: 'status' },
  { key: 'set_at', header: 'SET', kind: 'date' },
  { key: 'set', header: 'SET BY', kind: 'text' },
  { key: 'approved', header: 'APPROVED BY', kind: 'text' },
];

/** One rule on a terminal (after `policy add`): what a list's row shows, as a field/value table. */
export function ruleShown(row: Record<string, unknown>): Record<string, unknown> {
  const shown = tableRow(row);
  return { id: shown.id, rule: shown.rule, state: shown.state, set_at: shown.set_at, set_by: shown.set, approved_by: shown.approved };
}

