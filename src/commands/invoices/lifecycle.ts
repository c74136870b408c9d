import type { Operation } from '../../api/endpoints.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { when, type GuardedMove } from '../../ledger/guard.js';
import { formatMoney } from '../../output/format.js';
import { centsToDecimalString } from '../../validate/index.js';
import { getInvoice, invoiceId, invoiceRow, type Invoice } from './shared.js';
import { INVOICE_VIEW } from './view.js';

interface Step {
  operation: Operation;
  verb: string;
  action: string;
  /** Statuses the operation applies to; anything else is refused before sending. */
  from: readonly string[];
  /** Charges or refunds: goes through the ledger. */
  movesMoney: boolean;
  /** The status that shows the operation was applied, when an answer is lost. */
  appliedWhen: (invoice: Invoice) => boolean;
  done: string;
}

/** How an invoice shows each money move applied, for intents whatever command finds them. */
const APPLIED_WHEN: Record<string, (invoice: Invoice) => boolean> = {
  'invoices.approve': (i) => i.status === 'paid',
  'invoices.refund': (i) => i.status === 'canceled' && Boolean(i.voided_at),
};

async function step(ctx: Context, args: string[], how: Step): Promise<void> {
  const id = invoiceId(args);
  await ctx.requireApiKey();
  if (ctx.globals.dryRun) return ctx.printDryRun(how.operation, { params: { id } });
  const api = await ctx.api();
  if (!how.movesMoney) {
    await ask(ctx, id, how, await getInvoice(ctx, id));
    const after = await api.call<Invoice>(how.operation, { params: { id } });
    return done(ctx, id, how, after);
  }
  // Charging or refunding an invoice moves money: the ledger's protocol (src/ledger/guard.ts).
  const guard = await ctx.moneyGuard();
  const guarded: GuardedMove<Invoice> = {
    key: `invoice:${id}`,
    operation: how.operation,
    target: id,
    requestedCents: null,
    what: `the ${how.action.replace(/ an invoice$/, '')} of invoice ${id}`,
    checkCommand: `payctl invoices get ${id}`,
    look: () => getInvoice(ctx, id),
    // An earlier move of another kind left unresolved on this invoice is judged as what it was.
    applied: (intent, now) => (APPLIED_WHEN[intent.operation] ?? how.appliedWhen)(now),
  };
  await guard.guarded(
    guarded,
    async (repeat) => {
      await ctx.show(repeat.now, INVOICE_VIEW, { tableRow: invoiceRow, short: true });
      ctx.log.status(`Already done: invoice ${id} was ${how.done.toLowerCase()} by an earlier run (${when(repeat.intent.created_at)}) whose answer was lost; nothing was sent.`);
    },
    async () => {
      const before = await getInvoice(ctx, id);
      await ask(ctx, id, how, before);
      const after = await guard.send(
        guarded,
        { amount_cents: typeof before.amount === 'number' ? before.amount : null, before: JSON.stringify({ status: before.status }) },
        () => api.call<Invoice>(how.operation, { params: { id } }),
        (now) => now,
      );
      await done(ctx, id, how, after);
    },
  );
}

async function ask(ctx: Context, id: string, how: Step, before: Invoice): Promise<void> {
  if (before.status && !how.from.includes(before.status)) {
    throw new UsageError(`invoice ${id} is ${before.status}; only a ${how.from.join(' or ')} invoice can be ${how.done.toLowerCase()}`);
  }
  const amount = typeof before.amount === 'number' ? formatMoney(centsToDecimalString(before.amount), before.currency) : 'the amount';
  await ctx.confirm(`${how.verb} ${amount} of invoice ${id}${before.customer ? ` (customer ${before.customer})` : ''}?`, how.action);
  await ctx.noteSandbox();
}

async function done(ctx: Context, id: string, how: Step, after: Invoice): Promise<void> {
  await ctx.show(after, INVOICE_VIEW, { tableRow: invoiceRow, short: true });
  // A removal may answer with nothing (204, or an empty object): then there is no status to report.
  ctx.log.status(`${how.done} invoice ${id}${after.status ? `; status ${after.status}` : ''}`);
}

export function runRemove(ctx: Context, args: string[]): Promise<void> {
  return step(ctx, args, {
    operation: 'invoices.remove',
    verb: 'Cancel',
    action: 'remove an invoice',
    from: ['pending', 'over-due'],
    movesMoney: false,
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
    movesMoney: true,
    appliedWhen: APPLIED_WHEN['invoices.approve']!,
    done: 'Approved',
  });
}

export function runRefund(ctx: Context, args: string[]): Promise<void> {
  return step(ctx, args, {
    operation: 'invoices.refund',
    verb: 'Refund',
    action: 'refund an invoice',
    from: ['paid'],
    movesMoney: true,
    appliedWhen: APPLIED_WHEN['invoices.refund']!,
    done: 'Refunded',
  });
}
