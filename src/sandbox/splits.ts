import { found, SandboxError, throwProblems, type Problem } from './errors.js';
import { listEnvelope, parseListQuery, type ListEnvelope } from './list.js';
import { newId } from './ids.js';
import { centsToDecimal, decimalToCents } from './money.js';
import { requireSeller } from './sellers.js';
import { fullPart, specOf, type Part, type SplitRuleSpec } from './split-parts.js';
import { isoTimestamp } from './time.js';
import type { SandboxState, SplitRule, StoredTransaction } from './types.js';
import type { RequestBody } from '../provider/schemas/requests.js';

// Split rules: other sellers' parts of a sale. Each rule names a recipient (a seller) and a part,
// a fixed amount or a percentage of the sale's amount. The sale's own seller (on_behalf_of) gets
// what the parts leave. How each party's part follows the money, in integer cents:
//
// - A rule's full part is its amount, or floor(percentage × amount); the sale's seller keeps the
//   cents a percentage rounds away.
// - While part of the sale is refunded, each part is scaled to what remains: floor(part ×
//   remaining / amount). The cents lost to rounding go to the sale's seller, so the parts always
//   add up to exactly what remains, and a full refund takes every part back to zero.
// - Fees: a recipient whose rule has charge_processing_fee pays floor(fees × its part / remaining);
//   the sale's seller pays every other cent of the fees.

type SplitRuleBody = RequestBody<'transactions.splits.add'>;

/** A rule of a body that has met the request schema; with a percentage, the percentage is the part (the amount is what it is worth, not read). */
function specOfBody(rule: SplitRuleBody): SplitRuleSpec {
  const { percentage } = rule;
  // Hundredths of a percent, counted on the digits sent (the schema allows two decimals at most).
  const [whole = '0', fraction = ''] = String(percentage).split('.');
  return {
    recipient: rule.recipient,
    liable: rule.liable ?? true,
    chargeProcessingFee: rule.charge_processing_fee,
    cents: percentage === undefined ? rule.amount : null,
    basisPoints: percentage === undefined ? null : Number(whole) * 100 + Number(fraction.padEnd(2, '0')),
  };
}

/** What is wrong with a sale's rules together: a recipient more than once, the sale's own seller, parts over the amount. */
function splitRuleProblems(rules: SplitRuleSpec[], amount: number, onBehalfOf: string): Problem[] {
  const problems: Problem[] = [];
  const add = (message: string) => problems.push({ field: 'split_rules', message });
  const seen = new Set<string>();
  for (const rule of rules) {
    if (seen.has(rule.recipient)) add(`names recipient ${rule.recipient} more than once`);
    seen.add(rule.recipient);
    if (rule.recipient === onBehalfOf) add(`recipient ${rule.recipient} is the sale's own seller (on_behalf_of)`);
  }
  const total = rules.reduce((sum, rule) => sum + fullPart(rule, amount), 0);
  if (total > amount) add(`the parts add up to ${centsToDecimal(total)}, more than the amount ${centsToDecimal(amount)}`);
  const percent = rules.reduce((sum, rule) => sum + (rule.basisPoints ?? 0), 0);
  if (percent > 10_000) add('the percentages add up to more than 100');
  return problems;
}

/** The split_rules of a body that has met the request schema ([] when absent); what is wrong with them together goes to `problems`. */
export function parseSplitRules(value: unknown, amount: number, onBehalfOf: string, problems: Problem[]): SplitRuleSpec[] {
  const rules = ((value ?? []) as SplitRuleBody[]).map(specOfBody);
  problems.push(...splitRuleProblems(rules, amount, onBehalfOf));
  return rules;
}

/** Every recipient must be a seller (404 otherwise); call once the state is locked. */
export function requireRecipients(state: SandboxState, rules: SplitRuleSpec[]): void {
  for (const rule of rules) requireSeller(state, rule.recipient);
}

/** A rule as the provider shows it. Its receivable amounts are filled in by settling (partsOf). */
export function newSplitRule(state: SandboxState, spec: SplitRuleSpec, transaction: string, at: string): SplitRule {
  return {
    id: newId(state),
    resource: 'split_rule',
    transaction,
    recipient: spec.recipient,
    liable: spec.liable,
    charge_processing_fee: spec.chargeProcessingFee,
    charge_recipient_processing_fee: false,
    percentage: spec.basisPoints === null ? null : (spec.basisPoints / 100).toFixed(2),
    amount: spec.cents === null ? null : centsToDecimal(spec.cents),
    is_gross_amount: false,
    receivable_amount: '0.00',
    receivable_gross_amount: '0.00',
    created_at: at,
    updated_at: at,
  };
}

/** Writes each rule's current receivable amounts (net and gross) into it. */
export function showParts(parts: Part[], now: Date): void {
  for (const part of parts) {
    if (!part.rule) continue;
    const net = centsToDecimal(part.gross - part.fee);
    const gross = centsToDecimal(part.gross);
    if (part.rule.receivable_amount === net && part.rule.receivable_gross_amount === gross) continue;
    part.rule.receivable_amount = net;
    part.rule.receivable_gross_amount = gross;
    part.rule.updated_at = isoTimestamp(now);
  }
}

// --- the split_rules paths -------------------------------------------------------------------

export function findSplitRule(stored: StoredTransaction, id: string): SplitRule {
  return found(stored.txn.split_rules.find((r) => r.id === id), 'split rule', id);
}

/**
 * Rules change who gets a sale's money only while none of it has been paid out and some is still
 * to be collected or held: not after a payout, a failure or a full refund. The provider answers
 * such a clash with the sale's state as a 409 (its split_rule_precondition_* categories).
 */
function checkChangeable(state: SandboxState, stored: StoredTransaction, category: string): void {
  const { txn } = stored;
  if (txn.status === 'failed' || txn.status === 'canceled' || txn.status === 'charged_back' || (txn.status === 'succeeded' && stored.remaining_cents === 0)) {
    throw new SandboxError(409, category, `Transaction ${txn.id} is ${txn.status === 'succeeded' ? 'fully refunded' : txn.status}: its split rules can no longer change.`);
  }
  const paid = stored.receivable_indexes.some((i) => state.receivables.at(i)?.status === 'paid');
  if (paid) throw new SandboxError(409, category, `Transaction ${txn.id} has been paid out in part: its split rules can no longer change.`);
}

const ADD_CONFLICT = 'split_rule_precondition_creation_failure';

/**
 * POST …/transactions/{id}/split_rules: one more part of the sale. A rule wrong on its own is a
 * 400; one that is fine alone but clashes with the rules the sale has (the same recipient again,
 * parts over the amount) is a 409, like a sale whose rules can no longer change.
 */
export function planAddSplitRule(body: SplitRuleBody): (state: SandboxState, stored: StoredTransaction, now: Date) => SplitRule {
  const rule = specOfBody(body);
  return (state, stored, now) => {
    requireSeller(state, rule.recipient);
    const amount = decimalToCents(stored.txn.original_amount);
    const alone = splitRuleProblems([rule], amount, stored.txn.on_behalf_of);
    throwProblems(alone);
    checkChangeable(state, stored, ADD_CONFLICT);
    const together = splitRuleProblems([...stored.txn.split_rules.map(specOf), rule], amount, stored.txn.on_behalf_of);
    if (together.length > 0) {
      throw new SandboxError(409, ADD_CONFLICT, `Transaction ${stored.txn.id} cannot take this split rule with the ones it has.`, {
        reasons: together.map((p) => `${p.field}: ${p.message}`),
      });
    }
    const added = newSplitRule(state, rule, stored.txn.id, isoTimestamp(now));
    stored.txn.split_rules.push(added);
    stored.txn.updated_at = isoTimestamp(now);
    return added;
  };
}

/** DELETE …/split_rules/{rule}: the part goes back to the sale's seller. */
export function removeSplitRule(state: SandboxState, stored: StoredTransaction, id: string, now: Date): { id: string; resource: 'split_rule'; deleted: true } {
  findSplitRule(stored, id);
  checkChangeable(state, stored, 'split_rule_precondition_removal_failure');
  stored.txn.split_rules = stored.txn.split_rules.filter((r) => r.id !== id);
  stored.txn.updated_at = isoTimestamp(now);
  return { id, resource: 'split_rule', deleted: true };
}

export function listSplitRules(stored: StoredTransaction, params: URLSearchParams, uri: string): ListEnvelope<SplitRule> {
  return listEnvelope(uri, stored.txn.split_rules, parseListQuery(params, []));
}
