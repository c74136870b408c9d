import type { Context } from '../../context.js';
import type { Column } from '../../output/render.js';
import { centsToDecimalString, decimalStringToCents, validateId } from '../../validate/index.js';
import { missingInput, optionalString } from '../shared/input.js';
import { grossNetWithFees } from '../../output/totals.js';

export const RECEIVABLE_COLUMNS: Column[] = [
  { key: 'installment', header: 'INSTALLMENT' },
  { key: 'expected_on', header: 'EXPECTED', kind: 'date' },
  { key: 'gross_amount', header: 'GROSS', kind: 'money' },
  { key: 'fee', header: 'FEE', kind: 'money' },
  { key: 'amount', header: 'NET', kind: 'money' },
  { key: 'status', header: 'STATUS', kind: 'status' },
  // Receivables are found through their transaction; their own id gives way on a narrow terminal.
  { key: 'id', header: 'ID', kind: 'id', optional: true },
];

/** The fee is what lies between gross and net; the API gives only those two. */
export function receivableRow(item: Record<string, unknown>): Record<string, unknown> {
  const gross = typeof item.gross_amount === 'string' ? item.gross_amount : undefined;
  const net = typeof item.amount === 'string' ? item.amount : undefined;
  if (gross === undefined || net === undefined) return item;
  return { ...item, fee: centsToDecimalString(decimalStringToCents(gross) - decimalStringToCents(net)) };
}

export async function run(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<void> {
  const transaction = optionalString(options.transaction);
  if (transaction === undefined) throw missingInput(['--transaction <transaction-id>']);
  const id = validateId(transaction, 'transaction id', '--transaction');
  await ctx.requireApiKey();
  const count = await ctx.list({
    operation: 'receivables.listByTransaction',
    input: { params: { id } },
    request: { limit: 100, all: true },
    noun: 'receivables',
    columns: RECEIVABLE_COLUMNS,
    tableRow: receivableRow,
    totals: grossNetWithFees('gross_amount', 'amount'),
  });
  if (count === 0) ctx.log.status(`transaction ${id} has no receivables`);
}
