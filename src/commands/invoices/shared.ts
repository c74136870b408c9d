import type { Factory } from '../../factory.js';
import { AMOUNT_COLUMN, ID_COLUMN, STATUS_COLUMN } from '../../output/columns.js';
import type { Column } from '../../output/render-options.js';
import { validateId } from '../../validate/index.js';
import { centsForTable } from '../shared/cents.js';

export interface Invoice {
  id: string;
  amount?: number;
  currency?: string;
  status?: string;
  customer?: string;
  due_date?: string;
  [key: string]: unknown;
}

export const INVOICE_STATUSES = ['pending', 'paid', 'over-due', 'canceled', 'failed'] as const;

export const INVOICE_COLUMNS: Column[] = [
  ID_COLUMN,
  { key: 'due_date', header: 'DUE', kind: 'date' },
  AMOUNT_COLUMN,
  STATUS_COLUMN,
  { key: 'paid_at', header: 'PAID', kind: 'date' },
  // Who owes it and what it bills; on a terminal, by name.
  { key: 'customer', header: 'CUSTOMER', kind: 'id', optional: true, names: 'buyer' },
  { key: 'subscription', header: 'SUBSCRIPTION', kind: 'id', optional: true, names: 'subscription' },
];

export const invoiceRow = centsForTable('amount');

export function invoiceId(args: string[]): string {
  return validateId(args[0] ?? '', 'invoice id', '<id>');
}

export async function getInvoice(ctx: Factory, id: string): Promise<Invoice> {
  return (await ctx.api()).call<Invoice>('invoices.get', { params: { id } });
}
