import type { Context } from '../../context.js';
import type { Column } from '../../output/render.js';
import { validateId } from '../../validate/index.js';

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
  { key: 'id', header: 'ID' },
  { key: 'status', header: 'STATUS', kind: 'status' },
  { key: 'amount', header: 'AMOUNT', kind: 'money' },
  { key: 'payment_type', header: 'TYPE' },
  // The merchant's own reference: useful, but it gives way (cut, then dropped) before ids and money.
  { key: 'reference_id', header: 'REFERENCE', kind: 'text' },
  { key: 'description', header: 'DESCRIPTION' },
  { key: 'created_at', header: 'CREATED', kind: 'date' },
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
export interface Transaction {
  id: string;
  status?: string;
  amount?: string;
  original_amount?: string;
  currency?: string;
  payment_type?: string;
  on_behalf_of?: string;
  reference_id?: string;
  voided?: boolean;
  captured?: boolean;
  payment_method?: {
    resource?: string;
    card_brand?: string;
    last4_digits?: string;
    holder_name?: string;
  } | null;
  history?: { id?: string; operation_type?: string; amount?: string; status?: string }[];
  [key: string]: unknown;
}

export function transactionId(args: string[]): string {
  return validateId(args[0] ?? '', 'transaction id', '<id>');
}

/** "Visa ••••1111, Maria Silva" for card transactions; the payment type otherwise. */
export function describePayer(tx: Transaction): string {
  const method = tx.payment_method;
  if (method && (method.resource === 'card' || method.card_brand)) {
    const parts = [`${method.card_brand ?? 'Card'} ••••${method.last4_digits ?? '????'}`];
    if (method.holder_name) parts.push(method.holder_name);
    return parts.join(', ');
  }
  return tx.payment_type ?? 'transaction';
}

export async function getTransaction(ctx: Context, id: string): Promise<Transaction> {
  const api = await ctx.api();
  return api.call<Transaction>('transactions.get', { params: { id } });
}
