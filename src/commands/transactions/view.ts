// `transactions get` on a terminal: what support reads first (amount, what was refunded, who paid
// how), then the payment method, fees, the history as its own table and the metadata. A plain
// sale fits a 24-line screen. See src/output/object-view.ts.
import { AMOUNT_COLUMN, STATUS_COLUMN } from '../../output/columns.js';
import { decimalCents } from '../../output/totals.js';
import { formatMoney } from '../../output/format.js';
import { cardName } from '../../output/record-names.js';
import { AMOUNT, CREATED, CUSTOMER, DESCRIPTION, METADATA, SELLER, resourceView } from '../../output/resource-view.js';
import { centsToDecimalString } from '../../validate/index.js';
import { partText, SPLIT_COLUMNS, splitRow } from './splits/shared.js';

/** A split rule's own id is left to `transactions splits list`: the view shows who gets what. */
const SPLIT_VIEW_COLUMNS = SPLIT_COLUMNS.filter((c) => c.key !== 'id');

type Item = Record<string, unknown>;

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
const currencyOf = (item: Item) => text(item.currency);

/** What succeeded refunds (voids) in the history add up to, when anything was refunded. */
function refunded(item: Item): string | undefined {
  if (!Array.isArray(item.history)) return undefined;
  let cents = 0;
  for (const entry of item.history as Item[]) {
    if (entry?.status !== 'succeeded') continue;
    if (entry.operation_type !== 'void' && entry.operation_type !== 'refund') continue;
    cents += decimalCents(entry.amount) ?? 0;
  }
  return cents > 0 ? formatMoney(centsToDecimalString(cents), currencyOf(item)) : undefined;
}

/** The original amount, when what is left differs from it. */
function original(item: Item): string | undefined {
  const was = text(item.original_amount);
  return was !== undefined && decimalCents(was) !== decimalCents(item.amount) ? formatMoney(was, currencyOf(item)) : undefined;
}

/** "MasterCard ••••4444  expires 12/2030", named as a card is everywhere (record-names.ts). */
function card(item: Item): string | undefined {
  const method = item.payment_method as Item | null | undefined;
  if (!method || text(method.card_brand) === undefined) return undefined;
  const month = method.expiration_month;
  const year = method.expiration_year;
  const expires = month !== undefined && month !== null && year !== undefined && year !== null ? `  expires ${String(month).padStart(2, '0')}/${year}` : '';
  return `${cardName(method)}${expires}`;
}

/** Installments, when more than one: `3x R$ 49,97` (the first taking the odd cents, as the service splits them). */
function installments(item: Item): string | undefined {
  const plan = item.installment_plan as Item | null | undefined;
  const count = Number(plan?.number_installments);
  const cents = decimalCents(item.original_amount) ?? decimalCents(item.amount);
  if (!Number.isInteger(count) || count < 2 || cents === undefined) return undefined;
  const each = Math.floor(cents / count);
  const first = each + (cents - each * count);
  const money = (c: number) => formatMoney(centsToDecimalString(c), currencyOf(item));
  return first === each ? `${count}x ${money(each)}` : `${count}x ${money(each)} (the first ${money(first)})`;
}

export const TRANSACTION_VIEW = resourceView('Transaction', 'id', [
  AMOUNT,
  { label: 'Original', at: original },
  { label: 'Refunded', at: refunded },
  { label: 'Type', at: 'payment_type' },
  { label: 'Installments', at: installments },
  DESCRIPTION,
  { label: 'Reference', at: 'reference_id' },
  SELLER,
  CUSTOMER,
  CREATED,
  { label: 'Expected on', at: 'expected_on', kind: 'date' },
], [
  {
    title: 'Payment method',
    fields: [
      { label: 'Card', at: card },
      { label: 'Holder', at: 'payment_method.holder_name' },
      { label: 'Barcode', at: 'payment_method.barcode' },
      { label: 'Boleto', at: 'payment_method.url' },
      { label: 'PIX key', at: 'payment_method.key.value' },
      { label: 'PIX link', at: 'payment_method.pix_link' },
      { label: 'Due', at: 'payment_method.expiration_date', kind: 'date' },
      { label: 'Paid', at: 'payment_method.paid_at', kind: 'date' },
    ],
  },
  {
    title: 'Fees',
    fields: [
      { label: 'Total', at: 'fees', kind: 'money' },
      { label: 'Description', at: 'fee_details.description' },
    ],
  },
  {
    title: 'History',
    rows: {
      at: 'history',
      columns: [
        { key: 'created_at', header: 'DATE', kind: 'date' },
        { key: 'operation_type', header: 'OPERATION' },
        STATUS_COLUMN,
        AMOUNT_COLUMN,
        { key: 'response_message', header: 'RESPONSE' },
      ],
    },
  },
  {
    // Other sellers' parts (split rules); the sale's seller gets the rest.
    title: 'Split',
    rows: {
      at: 'split_rules',
      columns: SPLIT_VIEW_COLUMNS,
      row: (rule, item) => ({ ...splitRow(rule), part: partText(rule, currencyOf(item)) }),
    },
  },
  METADATA,
]);
