import type { Factory } from '../../factory.js';
import { GROSS_FEE_NET_COLUMNS, STATUS_COLUMN } from '../../output/columns.js';
import type { Column } from '../../output/render-options.js';
import { centsToDecimalString, decimalStringToCents, validateId } from '../../validate/index.js';
import { UsageError } from '../../errors.js';
import { missingInput, optionalString } from '../shared/input.js';
import { buildListRequest, enumValues, everythingOf, heldToDays } from '../shared/list.js';
import { BY_EXPECTED_DATE } from '../shared/list-flags.js';
import { sellerFlag } from '../shared/seller.js';
import { groupedRequest } from '../shared/group-by-flag.js';
import { groupingOf, RECEIVABLE_SUMMARY } from '../shared/summaries.js';
import { grossNetWithFees } from '../../output/totals.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { list } from './flags.js';

export const RECEIVABLE_COLUMNS: Column[] = [
  { key: 'installment', header: 'INSTALLMENT' },
  { key: 'expected_on', header: 'EXPECTED', kind: 'date' },
  ...GROSS_FEE_NET_COLUMNS,
  STATUS_COLUMN,
  // Receivables are found through their transaction; their own id gives way on a narrow terminal.
  { key: 'id', header: 'ID', kind: 'id', optional: true },
];

/**
 * A sale's receivables: each seller's part (a split sale pays several), so who gets it is shown
 * too, by name on a terminal, before their own ids.
 */
const TRANSACTION_RECEIVABLE_COLUMNS: Column[] = [
  ...RECEIVABLE_COLUMNS.filter((c) => c.key !== 'id'),
  { key: 'recipient', header: 'RECIPIENT', kind: 'id', optional: true, names: 'seller' },
  ...RECEIVABLE_COLUMNS.filter((c) => c.key === 'id'),
];

/** The fee is what lies between gross and net; the API gives only those two. */
export function receivableRow(item: Record<string, unknown>): Record<string, unknown> {
  const gross = typeof item.gross_amount === 'string' ? item.gross_amount : undefined;
  const net = typeof item.amount === 'string' ? item.amount : undefined;
  if (gross === undefined || net === undefined) return item;
  return { ...item, fee: centsToDecimalString(decimalStringToCents(gross) - decimalStringToCents(net)) };
}

/** How a list of receivables is shown, a transaction's or a seller's. */
const shown = (columns = RECEIVABLE_COLUMNS) => ({ noun: 'receivables', columns, tableRow: receivableRow, totals: grossNetWithFees('gross_amount', 'amount') });

/** The statuses the provider's seller receivables filter takes, one at a time. */
export const RECEIVABLE_STATUSES = ['pending', 'paid'] as const;

/** A seller's receivables, paid or not, from the provider's …/sellers/{id}/receivables. */
async function listBySeller(ctx: Factory, seller: string, options: OptionsOf<typeof list>): Promise<void> {
  const groupBy = await groupingOf(options, RECEIVABLE_SUMMARY, 'receivables');
  const request = groupedRequest(buildListRequest(options, BY_EXPECTED_DATE), groupBy !== undefined, options);
  const statuses = enumValues(options.status, RECEIVABLE_STATUSES, '--status');
  if (statuses.length > 1) throw new UsageError("--status: give one, pending or paid (the provider's seller receivables filter takes one value)");
  request.query.status = statuses[0];
  await ctx.service.requireApiKey();
  const count = await ctx.out.list({
    operation: 'receivables.listBySeller',
    input: { params: { id: seller }, query: request.query },
    request,
    ...shown(),
    ...heldToDays(request, 'receivables'),
    ...(groupBy ? { groupBy } : {}),
  });
  if (count === 0) ctx.log.status(`${await ctx.out.named('seller', seller)} has no receivables${request.query.status ? ` ${request.query.status}` : ''}`);
}

export async function run(ctx: Factory, _args: ArgsOf<typeof list>, options: OptionsOf<typeof list>): Promise<void> {
  let transaction = optionalString(options.transaction);
  const seller = sellerFlag(options);
  if (transaction !== undefined && seller !== undefined) throw new UsageError('give --transaction or --seller, not both');
  if (seller !== undefined) return listBySeller(ctx, seller, options);
  if ([options.status, options.limit, options.all, options.from, options.to, options.groupBy].some((given) => given !== undefined)) {
    throw new UsageError('--status, --limit, --all, --from, --to and --group-by go with --seller; a transaction\'s receivables are listed whole');
  }
  if (transaction === undefined) {
    if (!ctx.prompts.interactive) throw missingInput(ctx, ['--transaction <transaction-id> (or --seller <seller-id>)']);
    transaction = await (await import('../shared/ask-missing.js')).askArgument(ctx, { noun: 'transaction', label: 'Transaction id' }, '--transaction');
  }
  const id = validateId(transaction, 'transaction id', '--transaction');
  await ctx.service.requireApiKey();
  const whole = everythingOf('receivables.listByTransaction', id);
  const count = await ctx.out.list({
    // Whole, unless a tool reads it a page at a time (--window).
    ...(options.window !== undefined ? { ...whole, request: buildListRequest({ window: options.window }) } : whole),
    ...shown(TRANSACTION_RECEIVABLE_COLUMNS),
  });
  if (count === 0) ctx.log.status(`transaction ${id} has no receivables`);
}
