import type { Factory } from '../../factory.js';
import { CliError, ExitCode } from '../../errors.js';
import { explainTransfer, type TransferExplanation } from '../../finance/explain.js';
import { formatMoney } from '../../output/format.js';
import type { Column } from '../../output/render-options.js';
import { counted } from '../../platform/plural.js';
import { writeOut } from '../../output/write.js';
import { validateId } from '../../validate/index.js';
import type { ArgsOf } from '../verb.js';
import type { explain } from './flags.js';

// `payctl transfers explain <id>`: the receivables a transfer paid, and whether they add up to it.
// JSON (and NDJSON) is the whole explanation; a table and CSV list the items, a table with the
// sums under them. Exit 0 when it adds up to the centavo; 12, naming the difference, when not.

export const EXPLAINED_ITEM_COLUMNS: Column[] = [
  { key: 'transaction', header: 'SALE', kind: 'id' },
  { key: 'installment', header: 'INST' },
  { key: 'gross', header: 'GROSS', kind: 'money' },
  { key: 'fee', header: 'FEE', kind: 'money' },
  { key: 'refunded', header: 'REFUNDED', kind: 'money' },
  { key: 'charged_back', header: 'CHARGEBACK', kind: 'money', optional: true },
  { key: 'net', header: 'NET', kind: 'money' },
  { key: 'receivable', header: 'RECEIVABLE', kind: 'id', optional: true },
];

/** The lines under the items: what they come to, and whether that is the transfer. */
export function explanationSummary(e: TransferExplanation): string[] {
  const lines = [
    `${counted(e.items.length, 'item')}: gross ${formatMoney(e.sum.gross)} − fees ${formatMoney(e.sum.fees)} = net ${formatMoney(e.sum.net)} (refunds before the payout, ${formatMoney(e.sum.refunded)}, and chargebacks, ${formatMoney(e.sum.charged_back)}, are already out of the gross)`,
    `net ${formatMoney(e.sum.net)} − transfer fee ${formatMoney(e.transfer_fee)} = ${formatMoney(e.expected)}; the transfer is ${formatMoney(e.amount)}: ${e.difference === '0.00' ? 'it adds up (difference R$ 0,00)' : `a difference of ${formatMoney(e.difference)}`}`,
  ];
  for (const item of e.unexplained) lines.push(`not explained: receivable ${item.receivable}: ${item.why}`);
  return lines;
}

/** The error a transfer that does not add up ends with (exit 12). */
export function notAddingUp(e: TransferExplanation): CliError {
  const parts = [];
  if (e.difference !== '0.00') parts.push(`its items come to ${formatMoney(e.expected)} and it is ${formatMoney(e.amount)}: a difference of ${formatMoney(e.difference)}`);
  if (e.unexplained.length > 0) parts.push(`${counted(e.unexplained.length, 'item')} cannot be explained`);
  return new CliError(`transfer ${e.transfer} does not add up: ${parts.join('; ')}`, ExitCode.unreconciled);
}

export async function run(ctx: Factory, args: ArgsOf<typeof explain>): Promise<void> {
  const id = validateId(args[0] ?? '', 'transfer id', '<id>');
  await ctx.service.requireApiKey();
  const explanation = await explainTransfer(await ctx.api(), id);
  const format = await ctx.out.outputFormat();
  if (format === 'json' || format === 'ndjson') await ctx.out.render(explanation);
  else {
    await ctx.out.renderRows(explanation.items, EXPLAINED_ITEM_COLUMNS);
    if (format === 'table') await writeOut(ctx.io.stdout, `${explanationSummary(explanation).join('\n')}\n`);
  }
  if (!explanation.matched) throw notAddingUp(explanation);
  ctx.log.status(`transfer ${id} adds up: ${formatMoney(explanation.amount)}`);
}
