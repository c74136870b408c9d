import { UncertainOutcomeError } from '../../api/client.js';
import type { Operation } from '../../api/endpoints.js';
import type { Context } from '../../context.js';
import { NetworkError, OutcomeUnknownError, UsageError } from '../../errors.js';
import { formatMoney } from '../../output/format.js';
import { centsToDecimalString } from '../../validate/index.js';
import { getInvoice, invoiceId, invoiceRow, type Invoice } from './shared.js';

interface Step {
  operation: Operation;
  verb: string;
  action: string;
  /** Statuses the operation applies to; anything else is refused before sending. */
  from: readonly string[];
  /** The status that shows the operation was applied, when an answer is lost. */
  appliedWhen: (invoice: Invoice) => boolean;
  done: string;
}

async function step(ctx: Context, args: string[], how: Step): Promise<void> {
  const id = invoiceId(args);
  await ctx.requireApiKey();
  if (ctx.globals.dryRun) return ctx.printDryRun(how.operation, { params: { id } });
  const before = await getInvoice(ctx, id);
  if (before.status && !how.from.includes(before.status)) {
    throw new UsageError(`invoice ${id} is ${before.status}; only a ${how.from.join(' or ')} invoice can be ${how.done.toLowerCase()}`);
  }
  const amount = typeof before.amount === 'number' ? formatMoney(centsToDecimalString(before.amount), before.currency) : 'the amount';
  await ctx.confirm(`${how.verb} ${amount} of invoice ${id}${before.customer ? ` (customer ${before.customer})` : ''}?`, how.action);
  await ctx.noteSandbox();
  let after: Invoice;
  try {
    after = await (await ctx.api()).call<Invoice>(how.operation, { params: { id } });
  } catch (err) {
    if (!(err instanceof UncertainOutcomeError)) throw err;
    // The answer was lost: the invoice's status tells whether the money moved.
    let now: Invoice;
    try {
      now = await getInvoice(ctx, id);
    } catch {
      throw new OutcomeUnknownError(`could not tell whether invoice ${id} was ${how.done.toLowerCase()}; check with: payctl invoices get ${id}`, { cause: err });
    }
    if (!how.appliedWhen(now)) {
      throw new NetworkError(`invoice ${id} was not ${how.done.toLowerCase()} (still ${now.status}; ${err.message}); it is safe to run the command again`, { cause: err });
    }
    after = now;
  }
  await ctx.render(after, invoiceRow);
  ctx.log.status(`${how.done} invoice ${id}; status ${after.status}`);
}

export function runRemove(ctx: Context, args: string[]): Promise<void> {
  return step(ctx, args, {
    operation: 'invoices.remove',
    verb: 'Cancel',
    action: 'remove an invoice',
    from: ['pending', 'over-due'],
    appliedWhen: (i) => i.status === 'canceled',
    done: 'Canceled',
  });
}

export function runApprove(ctx: Context, args: string[]): Promise<void> {
  return step(ctx, args, {
    operation: 'invoices.approve',
    verb: 'Charge',
    action: 'approve an invoice',
    from: ['pending', 'over-due', 'failed'],
    appliedWhen: (i) => i.status === 'paid',
    done: 'Approved',
  });
}

export function runRefund(ctx: Context, args: string[]): Promise<void> {
  return step(ctx, args, {
    operation: 'invoices.refund',
    verb: 'Refund',
    action: 'refund an invoice',
    from: ['paid'],
    appliedWhen: (i) => i.status === 'canceled' && Boolean(i.voided_at),
    done: 'Refunded',
  });
}
