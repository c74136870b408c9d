import type { ArgsOf, OptionsOf } from '../verb.js';
import type { reconcileVerb } from './flags.js';
import type { Factory } from '../../factory.js';
import { CliError, ExitCode } from '../../errors.js';
import { reconcile, type ReconcileInput, type Reconciliation } from '../../finance/reconcile.js';
import { formatMoney } from '../../output/format.js';
import { counted } from '../../platform/plural.js';
import { AMOUNT_COLUMN } from '../../output/columns.js';
import type { Column } from '../../output/render-options.js';
import { writeOut } from '../../output/write.js';
import { centsToDecimalString, decimalStringToCents } from '../../validate/index.js';
import { optionalString } from '../shared/input.js';
import { buildListRequest, leftOutLine } from '../shared/list.js';
import { BY_EXPECTED_DATE, BY_TRANSFER_DATE } from '../shared/list-flags.js';
import { sellerFlag } from '../shared/seller.js';

const LINE_COLUMNS: Column[] = [
  { key: 'transfer', header: 'TRANSFER', kind: 'id' },
  { key: 'transfer_date', header: 'DATE', kind: 'date' },
  AMOUNT_COLUMN,
  { key: 'items', header: 'ITEMS' },
  { key: 'expected', header: 'EXPECTED', kind: 'money', optional: true },
  { key: 'difference', header: 'DIFFERENCE', kind: 'money' },
  { key: 'result', header: 'RESULT', kind: 'status' },
  { key: 'seller', header: 'SELLER', kind: 'id', optional: true, names: 'seller' },
];

const SELLER_COLUMNS: Column[] = [
  { key: 'seller', header: 'SELLER', kind: 'id', names: 'seller' },
  { key: 'transfers', header: 'TRANSFERS' },
  AMOUNT_COLUMN,
  { key: 'difference', header: 'DIFFERENCE', kind: 'money' },
  { key: 'not_matched', header: 'NOT MATCHED' },
];

const ORPHAN_COLUMNS: Column[] = [
  { key: 'kind', header: 'WHAT' },
  { key: 'receivable', header: 'RECEIVABLE', kind: 'id' },
  { key: 'transaction', header: 'SALE', kind: 'id', optional: true },
  { key: 'why', header: 'WHY', kind: 'text' },
];

const PARQUET_COLUMNS = [
  { path: 'transfer', type: 'string' },
  { path: 'transfer_date', type: 'date' },
  { path: 'seller', type: 'string' },
  { path: 'status', type: 'string' },
  { path: 'amount', type: 'decimal' },
  { path: 'items', type: 'integer' },
  { path: 'expected', type: 'decimal' },
  { path: 'difference', type: 'decimal' },
  { path: 'unexplained', type: 'integer' },
  { path: 'result', type: 'string' },
] as const;

type ProgressStep = Parameters<NonNullable<ReconcileInput['onProgress']>>[0];

/** What the progress bar counts at each step. */
const PROGRESS_NOUNS: Record<ProgressStep, string> = { transfers: 'transfers explained', receivables: 'paid receivables checked' };

async function writeParquet(file: string, result: Reconciliation): Promise<void> {
  const [{ PartialFile }, { parquetWriter }, { Leftovers }] = await Promise.all([import('../export/sink.js'), import('../export/parquet.js'), import('../export/failure.js')]);
  const out = await PartialFile.open(file);
  try {
    const writer = parquetWriter([...PARQUET_COLUMNS], out);
    await writer.write(result.transfers.map((item) => ({ item: { ...item }, json: '' })));
    await writer.end();
    await out.finish();
    out.commit();
  } catch (err) {
    await out.abandon(new Leftovers());
    throw err;
  }
}

export async function run(ctx: Factory, _args: ArgsOf<typeof reconcileVerb>, options: OptionsOf<typeof reconcileVerb>): Promise<void> {
  // --from and --to are required: given, or asked for on a terminal, before this runs.
  const transfers = buildListRequest(options, BY_TRANSFER_DATE);
  const receivables = buildListRequest(options, BY_EXPECTED_DATE);
  const seller = sellerFlag(options);
  const parquet = optionalString(options.parquet);
  await ctx.service.requireApiKey();
  ctx.service.expectLongRun();
  const api = await ctx.api();
  const outside = { transfers: 0, receivables: 0 };
  // Nothing is printed until every transfer is explained (the totals and what no transfer
  // accounts for need all of them): a terminal sees how far it has got meanwhile.
  const progress = ctx.io.stderrIsTTY && !ctx.globals.quiet ? (await import('../../output/progress.js')).stepProgress(ctx.io.stderr) : undefined;
  let result: Reconciliation;
  try {
    result = await reconcile(api, {
      from: optionalString(options.from) ?? null,
      to: optionalString(options.to) ?? null,
      transferQuery: transfers.query,
      receivableQuery: receivables.query,
      ...(seller !== undefined ? { seller } : {}),
      onOutside: (what, count) => (outside[what] += count),
      ...(progress ? { onProgress: (step: ProgressStep, items: number, total: number | undefined) => progress.page(PROGRESS_NOUNS[step], items, total) } : {}),
    });
  } finally {
    progress?.stop();
  }
  for (const [what, request] of [['transfers', transfers], ['receivables', receivables]] as const) {
    if (request.days && outside[what] > 0) ctx.log.status(leftOutLine(request.days, what, outside[what]));
  }
  if (parquet !== undefined) await writeParquet(parquet, result);
  const format = await ctx.out.outputFormat();
  if (format === 'json') await ctx.out.render(result);
  else if (format === 'ndjson' || format === 'csv') await ctx.out.renderRows(result.transfers, LINE_COLUMNS);
  else {
    await ctx.out.renderRows(result.transfers, LINE_COLUMNS);
    if (result.sellers.length > 0) {
      await writeOut(ctx.io.stdout, '\n');
      await ctx.out.renderRows(result.sellers, SELLER_COLUMNS);
    }
    if (result.orphans.length > 0) {
      await writeOut(ctx.io.stdout, '\n');
      await ctx.out.renderRows(result.orphans, ORPHAN_COLUMNS);
    }
  }
  const notMatched = result.transfers.filter((t) => t.result !== 'matched');
  const total = result.transfers.reduce((sum, t) => sum + decimalStringToCents(t.amount), 0);
  const summary = `${counted(result.transfers.length, 'transfer')} (${formatMoney(centsToDecimalString(total))}), ${result.from} to ${result.to}`;
  if (result.matched) {
    ctx.log.status(`${summary}: every one adds up`);
    return;
  }
  const parts = [];
  if (notMatched.length > 0) parts.push(`${counted(notMatched.length, 'transfer')} ${notMatched.length === 1 ? 'does' : 'do'} not add up (${notMatched.slice(0, 3).map((t) => `${t.transfer}: ${t.result === 'difference' ? `difference ${formatMoney(t.difference)}` : `${counted(t.unexplained, 'item')} not explained`}`).join('; ')}${notMatched.length > 3 ? '; …' : ''})`);
  if (result.orphans.length > 0) parts.push(`${counted(result.orphans.length, 'receivable')} no transfer accounts for`);
  throw new CliError(`${summary}: ${parts.join('; ')}`, ExitCode.unreconciled);
}
