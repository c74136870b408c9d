import { UncertainOutcomeError } from '../../api/client.js';
import type { Factory } from '../../factory.js';
import { OutcomeUnknownError } from '../../errors.js';
import { validateId } from '../../validate/index.js';
import { TRANSACTION_VIEW } from '../transactions/view.js';
import type { ArgsOf } from '../verb.js';
import type { pay } from './flags.js';

export async function run(ctx: Factory, args: ArgsOf<typeof pay>): Promise<void> {
  const id = validateId(args[0] ?? '', 'transaction id', '<transaction-id>');
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) return ctx.service.printDryRun('transactions.approve', { params: { id } });
  await ctx.service.noteSandbox();
  const api = await ctx.api();
  let tx: { status?: string; metadata?: Record<string, unknown> | null };
  try {
    tx = await api.call('transactions.approve', { params: { id } });
  } catch (err) {
    if (!(err instanceof UncertainOutcomeError)) throw err;
    throw new OutcomeUnknownError(`${err.message}; transaction ${id} may or may not be paid now: check with payctl transactions get ${id} before paying it again`, { cause: err });
  }
  await ctx.out.show(tx, TRANSACTION_VIEW, { short: true });
  ctx.log.status(`Transaction ${id} paid; status ${tx.status}`);
  // A subscription's boleto pays its invoice: said from the invoice itself, read back, not assumed.
  const invoiceId = tx.metadata?.invoice;
  if (typeof invoiceId !== 'string' || invoiceId === '') return;
  // The payment stands either way: a failed look at the invoice is a warning, not the command's failure.
  try {
    const invoice = await api.call('invoices.get', { params: { id: validateId(invoiceId, 'invoice id', 'the metadata invoice') } });
    ctx.log.status(`Invoice ${invoiceId}: ${invoice.status}`);
  } catch (err) {
    ctx.log.warn(`transaction ${id} is paid, but its invoice ${invoiceId} could not be read (${(err as Error).message}): check with payctl invoices get ${invoiceId}`);
  }
}
