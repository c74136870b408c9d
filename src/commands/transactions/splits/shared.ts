import type { Factory } from '../../../factory.js';
import type { MoveLookup, MoveTarget } from '../../../ledger/guard.js';
import type { Intent } from '../../../ledger/types.js';
import { formatMoney } from '../../../output/format.js';
import type { ObjectView } from '../../../output/object-view.js';
import { nameOrId } from '../../../output/record-names.js';
import { CREATED, TRANSACTION } from '../../../output/resource-view.js';
import type { Column } from '../../../output/render-options.js';
import { validateId } from '../../../validate/index.js';
import type { SplitInput } from '../split-input.js';

// `transactions splits …`: the split rules of one sale (docs/marketplace-and-splits.md, "Split rules").

export interface SplitRule {
  id: string;
  recipient: string;
  liable?: boolean | null;
  charge_processing_fee?: boolean | null;
  percentage?: string | number | null;
  amount?: string | number | null;
  receivable_amount?: string | null;
  receivable_gross_amount?: string | null;
  [key: string]: unknown;
}

type Item = Record<string, unknown>;

const given = (value: unknown) => value !== undefined && value !== null && value !== '';

/** "30%" or "R$ 7,50": a rule's part as it was set. */
export function partText(rule: Item, currency?: string | null): string | undefined {
  if (given(rule.percentage)) return `${Number(rule.percentage)}%`;
  if (given(rule.amount)) return formatMoney(String(rule.amount), currency);
  return undefined;
}

/** Who pays the fees of a recipient's part: itself (charge_processing_fee) or the sale's seller. */
export function feesText(rule: Item): string {
  return rule.charge_processing_fee === true ? 'recipient' : 'seller';
}

export function splitRow(rule: Item): Item {
  return { ...rule, part: partText(rule), liable_text: rule.liable === true ? 'yes' : 'no', fees_text: feesText(rule) };
}

export const SPLIT_COLUMNS: Column[] = [
  { key: 'id', header: 'ID', optional: true },
  { key: 'recipient', header: 'RECIPIENT', kind: 'id', names: 'seller' },
  { key: 'part', header: 'PART' },
  { key: 'liable_text', header: 'LIABLE' },
  { key: 'fees_text', header: 'FEES' },
  { key: 'receivable_amount', header: 'GETS', kind: 'money' },
];

export const SPLIT_RULE_VIEW: ObjectView = {
  noun: 'Split rule',
  id: 'id',
  summary: [
    TRANSACTION,
    { label: 'Recipient', at: 'recipient', kind: 'id', names: 'seller' },
    { label: 'Part', at: (rule) => partText(rule) },
    { label: 'Liable', at: (rule) => (rule.liable === true ? 'yes (answers for chargebacks)' : 'no') },
    { label: 'Fees', at: (rule) => (rule.charge_processing_fee === true ? 'its share, from its part (charge_processing_fee)' : "the sale's seller pays them") },
    { label: 'Gets', at: 'receivable_amount', kind: 'money' },
    { label: 'Gross', at: 'receivable_gross_amount', kind: 'money' },
    CREATED,
  ],
  sections: [],
};

/** "Loja Azul Ltda" (or "seller <id>" when it cannot be read): a seller as a question about a split names it. */
export async function sellerNamed(ctx: Factory, id: string | null | undefined): Promise<string> {
  return typeof id === 'string' && id !== '' ? nameOrId(await ctx.api(), 'seller', id) : "the sale's seller";
}

export function ruleId(args: string[]): string {
  return validateId(args[1] ?? '', 'split rule id', '<rule-id>');
}

/** Every split rule of a transaction (a sale has a handful: one page holds them). */
export async function listRules(ctx: Factory, id: string): Promise<SplitRule[]> {
  const api = await ctx.api();
  const page = await api.call('transactions.splits.list', { params: { id }, query: { limit: 100 } });
  return page.items;
}

/**
 * A change of a sale's split rules under the ledger's protocol (src/ledger/guard.ts): locked per
 * transaction, and settled by listing its rules, never by sending again.
 */
export function splitsMove(
  ctx: Factory,
  id: string,
  operation: 'transactions.splits.add' | 'transactions.splits.remove',
  what: string,
  applied: (intent: Intent, now: SplitRule[]) => boolean,
): { what: MoveTarget; lookup: MoveLookup<SplitRule[]> } {
  return {
    what: { key: `splits:${id}`, operation, target: id, requestedCents: null, what, checkCommand: `payctl transactions splits list ${id}` },
    lookup: {
      look: () => listRules(ctx, id),
      proves: (intent, now) => (applied(intent, now) ? { kind: 'applied', proof: null } : { kind: 'not_seen' }),
    },
  };
}

/** A rule as --split would have given it, to check a new part together with the ones there are. */
export function asSplitInput(rule: SplitRule): SplitInput {
  const share = given(rule.percentage)
    ? { mode: 'percentage' as const, value: String(rule.percentage) }
    : { mode: 'fixed' as const, cents: Math.round(Number(rule.amount) * 100) };
  return { recipient: rule.recipient, share, liable: rule.liable === true, net: rule.charge_processing_fee === true };
}
