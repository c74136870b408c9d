import type { Factory } from '../../factory.js';
import { ValidationError } from '../../errors.js';
import { parseDate, validateCurrency, validateId } from '../../validate/index.js';
import { amountFromFlags } from '../shared/amount.js';
import { defaultToday, notInThePast, SANDBOX_TODAY } from '../shared/dates.js';
import { missingInput, optionalString } from '../shared/input.js';
import { invoiceRow, type Invoice } from './shared.js';
import { INVOICE_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { create } from './flags.js';

export async function run(ctx: Factory, _args: ArgsOf<typeof create>, options: OptionsOf<typeof create>): Promise<void> {
  const customer = optionalString(options.customer);
  const amount = amountFromFlags(options);
  const missing = [customer === undefined && '--customer', amount === undefined && '--amount (or --amount-cents)'].filter((f): f is string => Boolean(f));
  if (missing.length > 0) throw missingInput(ctx, missing);
  await ctx.service.requireApiKey();
  const profile = await ctx.config.profile();
  const due = optionalString(options.dueDate);
  const body: Record<string, unknown> = {
    customer: validateId(customer as string, 'buyer id', '--customer'),
    amount,
    currency: validateCurrency(optionalString(options.currency) ?? profile.currency, '--currency'),
    due_date: due === undefined ? undefined : notInThePast(parseDate(due, '--due-date'), '--due-date'),
    payment_method: 'credit',
  };
  const expiration = optionalString(options.expirationDate);
  if (expiration !== undefined) body.expiration_date = parseDate(expiration, '--expiration-date');
  const description = optionalString(options.description);
  if (description !== undefined) body.description = description;
  const seller = optionalString(options.onBehalfOf) ?? profile.sellerId;
  if (seller !== undefined) body.on_behalf_of = validateId(seller, 'seller id', '--on-behalf-of');
  // Not given: today as the service counts it (on a sandbox, the day of its clock), asked only now
  // that the flags are checked.
  body.due_date ??= await defaultToday(ctx);
  if (expiration !== undefined && body.due_date !== SANDBOX_TODAY && (body.expiration_date as string) < (body.due_date as string)) {
    throw new ValidationError('--expiration-date', `${body.expiration_date} is before the due date ${body.due_date}`);
  }
  if (ctx.globals.dryRun) return ctx.service.printDryRun('invoices.create', { body });
  await ctx.service.noteSandbox();
  const invoice = await (await ctx.api()).call('invoices.create', { body });
  await ctx.out.show(invoice, INVOICE_VIEW, { tableRow: invoiceRow });
  ctx.log.status(`Created invoice ${invoice.id}, due ${invoice.due_date ?? body.due_date}`);
}
