import type { ApiClient } from '../../api/client.js';
import type { ResourceOf } from '../../provider/answer-types.js';
import type { Factory } from '../../factory.js';
import { AMOUNT_COLUMN, CREATED_COLUMN, ID_COLUMN, STATUS_COLUMN } from '../../output/columns.js';
import { nameKey, nameOrId, recordNames } from '../../output/record-names.js';
import type { Column } from '../../output/render-options.js';
import { validateId } from '../../validate/index.js';
import { describeCard } from '../cards/shared.js';

export const TRANSACTION_STATUSES = [
  'new',
  'pending',
  'pre_authorized',
  'succeeded',
  'failed',
  'canceled',
  'reversed',
  'refunded',
  'partial_refunded',
  'dispute',
  'charged_back',
] as const;

export const PAYMENT_TYPES = ['credit', 'debit', 'boleto', 'bolepix', 'pix'] as const;

export const TRANSACTION_COLUMNS: Column[] = [
  ID_COLUMN,
  STATUS_COLUMN,
  AMOUNT_COLUMN,
  { key: 'payment_type', header: 'TYPE' },
  // Who paid, as support asks (table only: `payerRow`); gives way before the reference.
  { key: 'payer', header: 'PAYER', kind: 'text' },
  // The merchant's own reference: useful, but it gives way (cut, then dropped) before ids and money.
  { key: 'reference_id', header: 'REFERENCE', kind: 'text' },
  { key: 'description', header: 'DESCRIPTION' },
  CREATED_COLUMN,
];

/**
 * The CSV header of a transaction export, the same on every run whatever the rows hold (a boleto
 * has no card brand, a card sale no barcode): one dotted column per field a spreadsheet can use.
 * The history and fee details stay in JSON; --fields picks any other column.
 */
export const TRANSACTION_CSV_COLUMNS = [
  'id',
  'status',
  'amount',
  'original_amount',
  'fees',
  'currency',
  'payment_type',
  'description',
  'reference_id',
  'on_behalf_of',
  'customer',
  'transaction_number',
  'installment_plan.number_installments',
  'payment_method.card_brand',
  'payment_method.first4_digits',
  'payment_method.last4_digits',
  'payment_method.holder_name',
  'payment_method.barcode',
  'payment_method.expiration_date',
  'captured',
  'refunded',
  'voided',
  'expected_on',
  'created_at',
  'updated_at',
];

/** The fields of a transaction the CLI reads itself; the rest is passed through untouched. */
/** A transaction as the provider's schema reads it (provider/schemas/transaction.ts). */
export type Transaction = ResourceOf<'transaction'>;

export function transactionId(args: string[]): string {
  return validateId(args[0] ?? '', 'transaction id', '<id>');
}

/**
 * A transaction as a table row: with who paid (`PAYER`: "••••4444 MasterCard Joana Pereira", the
 * last 4 first, so that a column cut to fit keeps them): the card, and the buyer's name when the
 * sale names a buyer (withBuyerNames read it), else the card holder's.
 */
export function payerRow(tx: Record<string, unknown>): Record<string, unknown> {
  const method = tx.payment_method as Transaction['payment_method'] | undefined;
  const card = method && (method.resource === 'card' || method.card_brand) ? `••••${method.last4_digits ?? '????'} ${method.card_brand ?? 'card'}` : undefined;
  const name = typeof tx._buyer_name === 'string' ? tx._buyer_name : card ? (method?.holder_name ?? undefined) : undefined;
  const payer = [card, name].filter(Boolean).join(' ');
  return payer === '' ? tx : { ...tx, payer };
}

/**
 * "Visa ••••1111, Maria Silva" for card transactions (the card and its holder); otherwise the
 * payment type and the buyer by name, read from the service ("pix, Maria Silva"; by id when the
 * buyer cannot be read): who paid, as a question names them.
 */
export async function describePayer(api: ApiClient, tx: Transaction): Promise<string> {
  const method = tx.payment_method;
  if (method && (method.resource === 'card' || method.card_brand)) return describeCard(method);
  const type = tx.payment_type ?? 'transaction';
  return typeof tx.customer === 'string' && tx.customer !== '' ? `${type}, ${await nameOrId(api, 'buyer', tx.customer)}` : type;
}

export async function getTransaction(ctx: Factory, id: string): Promise<Transaction> {
  const api = await ctx.api();
  return api.call('transactions.get', { params: { id } });
}

/**
 * A page of sales with the names of the buyers they name (read once each, a few at once, within
 * the command's bound: record-names.ts), for the table's PAYER column: `_buyer_name` on each
 * sale, display only. A buyer that cannot be read leaves the card holder's name in the column.
 */
async function withBuyerNames(api: ApiClient, page: unknown[]): Promise<unknown[]> {
  const sales = page as Array<Record<string, unknown>>;
  const ids = new Set(sales.map((tx) => tx.customer).filter((id): id is string => typeof id === 'string' && id !== ''));
  const names = await recordNames(api, [...ids].map((id) => ({ kind: 'buyer' as const, id })));
  return sales.map((tx) => {
    const name = typeof tx.customer === 'string' ? names.get(nameKey({ kind: 'buyer', id: tx.customer })) : undefined;
    return name ? { ...tx, _buyer_name: name } : tx;
  });
}

/**
 * What a table of sales needs for its PAYER column: the card and who paid (payerRow), the buyers'
 * names read only where the column can show (a terminal narrower than 100 columns drops it).
 */
export function payerColumn(ctx: Factory): Pick<import('../../output/printer.js').ListSpec, 'tableRow' | 'tablePage'> {
  const columns = (ctx.io.stdout as { columns?: number }).columns;
  return { tableRow: payerRow, ...(columns === undefined || columns >= 100 ? { tablePage: withBuyerNames } : {}) };
}
