import { notFound, SandboxError } from './errors.js';
import { isObject, type JsonObject } from './http.js';
import { listEnvelope, parseListQuery, type ListEnvelope } from './list.js';
import { newId } from './ids.js';
import { centsToDecimal, decimalToCents, parseCents } from './money.js';
import { requireSeller } from './sellers.js';
import { fullPart, specOf, type Part, type SplitRuleSpec } from './split-parts.js';
import { isoTimestamp } from './time.js';
import type { SandboxState, SplitRule, StoredTransaction } from './types.js';
import { Checker } from './validate.js';

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

function parseBasisPoints(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : undefined;
  if (text === undefined || !/^\d{1,3}(\.\d{1,2})?$/.test(text)) return undefined;
  const [whole = '0', fraction = ''] = text.split('.');
  const points = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return points > 0 && points <= 10_000 ? points : undefined;
}

function parseFlag(value: unknown, fallback: boolean, field: string, check: Checker): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 1 || value === '1') return true;
  if (value === 'false' || value === 0 || value === '0') return false;
  check.add(field, 'must be a boolean');
  return fallback;
}

/** One rule of a request body; `field` names it in messages ("split_rules[0]"). */
export function parseSplitRule(value: unknown, field: string, check: Checker): SplitRuleSpec | undefined {
  if (!isObject(value)) {
    check.add(field, 'must be an object');
    return undefined;
  }
  const recipient = check.requiredString(value.recipient, `${field}.recipient`, 64);
  // The provider's file requires the amount in every variant; with a percentage, the percentage is
  // the part (the amount, if any, is what it is worth and is not read).
  const hasAmount = value.amount !== undefined && value.amount !== null;
  const hasPercentage = value.percentage !== undefined && value.percentage !== null;
  if (!hasAmount && !hasPercentage) check.add(field, 'takes an amount (in cents) or a percentage');
  const given = hasAmount ? parseCents(value.amount) : null;
  if (hasAmount && (given === undefined || (given === 0 && !hasPercentage))) check.add(`${field}.amount`, 'must be a positive integer amount in cents');
  const cents = hasPercentage ? null : given;
  const basisPoints = hasPercentage ? parseBasisPoints(value.percentage) : null;
  if (hasPercentage && basisPoints === undefined) check.add(`${field}.percentage`, 'must be a percentage above 0 and at most 100, with at most two decimals');
  const liable = parseFlag(value.liable, true, `${field}.liable`, check);
  const chargeProcessingFee = parseFlag(value.charge_processing_fee, false, `${field}.charge_processing_fee`, check);
  if (recipient === undefined || given === undefined || basisPoints === undefined || (!hasAmount && !hasPercentage)) return undefined;
  return { recipient, liable, chargeProcessingFee, cents: cents ?? null, basisPoints };
}

/**
 * Checks a sale's rules together: each recipient once, never the sale's own seller, all parts
 * within the amount. `field` names the list in messages.
 */
export function checkSplitRules(rules: SplitRuleSpec[], amount: number, onBehalfOf: string, field: string, check: Checker): void {
  const seen = new Set<string>();
  for (const rule of rules) {
    if (seen.has(rule.recipient)) check.add(field, `names recipient ${rule.recipient} more than once`);
    seen.add(rule.recipient);
    if (rule.recipient === onBehalfOf) check.add(field, `recipient ${rule.recipient} is the sale's own seller (on_behalf_of)`);
  }
  const total = rules.reduce((sum, rule) => sum + fullPart(rule, amount), 0);
  if (total > amount) check.add(field, `the parts add up to ${centsToDecimal(total)}, more than the amount ${centsToDecimal(amount)}`);
  const percent = rules.reduce((sum, rule) => sum + (rule.basisPoints ?? 0), 0);
  if (percent > 10_000) check.add(field, 'the percentages add up to more than 100');
}

/** The body's split_rules, checked; [] when absent. */
export function parseSplitRules(value: unknown, amount: number, onBehalfOf: string, check: Checker): SplitRuleSpec[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    check.add('split_rules', 'must be a list');
    return [];
  }
  const rules = value.map((v, i) => parseSplitRule(v, `split_rules[${i}]`, check)).filter((r): r is SplitRuleSpec => r !== undefined);
  checkSplitRules(rules, amount, onBehalfOf, 'split_rules', check);
  return rules;
}

/** Every recipient must be a seller (404 otherwise); call once the state is locked. */
export function requireRecipients(state: SandboxState, rules: SplitRuleSpec[]): void {
  for (const rule of rules) requireSeller(state, rule.recipient);
}

/** A rule as the provider shows it. Its receivable amounts are filled in by settling (partsOf). */
export function newSplitRule(spec: SplitRuleSpec, transaction: string, at: string): SplitRule {
  return {
    id: newId(),
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
export function showParts(stored: StoredTransaction, parts: Part[], now: Date): void {
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

function rulesOf(stored: StoredTransaction): SplitRule[] {
  return (stored.txn.split_rules ??= []);
}

export function findSplitRule(stored: StoredTransaction, id: string): SplitRule {
  const rule = rulesOf(stored).find((r) => r.id === id);
  if (!rule) throw notFound('split rule', id);
  return rule;
}

/**
 * Rules change who gets a sale's money only while none of it has been paid out and some is still
 * to be collected or held: not after a payout, a failure or a full refund. The provider answers
 * such a clash with the sale's state as a 409 (its split_rule_precondition_* categories).
 */
function checkChangeable(state: SandboxState, stored: StoredTransaction, category: string): void {
  const { txn } = stored;
  if (txn.status === 'failed' || txn.status === 'canceled' || (txn.status === 'succeeded' && stored.remaining_cents === 0)) {
    throw new SandboxError(409, category, `Transaction ${txn.id} is ${txn.status === 'succeeded' ? 'fully refunded' : txn.status}: its split rules can no longer change.`);
  }
  const paid = (stored.receivable_indexes ?? []).some((i) => state.receivables.at(i)?.status === 'paid');
  if (paid) throw new SandboxError(409, category, `Transaction ${txn.id} has been paid out in part: its split rules can no longer change.`);
}

const ADD_CONFLICT = 'split_rule_precondition_creation_failure';

/**
 * POST …/transactions/{id}/split_rules: one more part of the sale. A rule wrong on its own is a
 * 400; one that is fine alone but clashes with the rules the sale has (the same recipient again,
 * parts over the amount) is a 409, like a sale whose rules can no longer change.
 */
export function planAddSplitRule(body: JsonObject): (state: SandboxState, stored: StoredTransaction, now: Date) => SplitRule {
  const check = new Checker();
  const spec = parseSplitRule(body, 'split_rule', check);
  check.throwIfAny();
  return (state, stored, now) => {
    const rule = spec as SplitRuleSpec;
    requireSeller(state, rule.recipient);
    const amount = decimalToCents(stored.txn.original_amount);
    const alone = new Checker();
    checkSplitRules([rule], amount, stored.txn.on_behalf_of, 'split_rules', alone);
    alone.throwIfAny();
    checkChangeable(state, stored, ADD_CONFLICT);
    const together = new Checker();
    checkSplitRules([...rulesOf(stored).map(specOf), rule], amount, stored.txn.on_behalf_of, 'split_rules', together);
    if (!together.ok) {
      throw new SandboxError(409, ADD_CONFLICT, `Transaction ${stored.txn.id} cannot take this split rule with the ones it has.`, {
        reasons: together.problems.map((p) => `${p.field}: ${p.message}`),
      });
    }
    const added = newSplitRule(rule, stored.txn.id, isoTimestamp(now));
    rulesOf(stored).push(added);
    stored.txn.updated_at = isoTimestamp(now);
    return added;
  };
}

/** DELETE …/split_rules/{rule}: the part goes back to the sale's seller. */
export function removeSplitRule(state: SandboxState, stored: StoredTransaction, id: string, now: Date): { id: string; resource: 'split_rule'; deleted: true } {
  findSplitRule(stored, id);
  checkChangeable(state, stored, 'split_rule_precondition_removal_failure');
  stored.txn.split_rules = rulesOf(stored).filter((r) => r.id !== id);
  stored.txn.updated_at = isoTimestamp(now);
  return { id, resource: 'split_rule', deleted: true };
}

export function listSplitRules(stored: StoredTransaction, params: URLSearchParams, uri: string): ListEnvelope<SplitRule> {
  return listEnvelope(uri, rulesOf(stored), parseListQuery(params, []));
}
