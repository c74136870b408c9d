import type { Operation } from '../../provider/endpoints.js';
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { appliedEarlier, describeOrigin } from '../../ledger/guard.js';
import { when } from '../../ledger/time.js';
import { confirmDespiteEarlier, moneyMoveFlags } from '../shared/again.js';
import { formatMoney } from '../../output/format.js';
import { nameOrId } from '../../output/record-names.js';
import { centsToDecimalString } from '../../validate/index.js';
import { getInvoice, invoiceId, invoiceRow, type Invoice } from './shared.js';
import { INVOICE_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { approve, refund, remove } from './flags.js';

interface Step {
  operation: Operation;
  verb: string;
  action: string;
  /** Statuses the operation applies to; anything else is refused before sending. */
  from: readonly string[];
  /** Charges or refunds: goes through the ledger. */
  movesMoney: boolean;
  /** What shows the operation was applied, when an answer is lost and the invoice is looked up. */
  appliedWhen: (invoice: Invoice) => boolean;
  /** The status the operation's own answer shows. */
  leadsTo: string;
  done: string;
}

/** How an invoice shows each money move applied, for intents whatever command finds them. */
const APPLIED_WHEN: Record<string, (invoice: Invoice) => boolean> = {
  'invoices.approve': (i) => i.status === 'paid',
  'invoices.refund': (i) => i.status === 'canceled' && Boolean(i.voided_at),
};

async function step(ctx: Factory, args: ArgsOf<typeof remove>, how: Step, options: OptionsOf<typeof approve | typeof refund> = { wait: true }): Promise<void> {
  const id = invoiceId(args);
  const flags = moneyMoveFlags(options);
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) return ctx.service.printDryRun(how.operation, { params: { id } });
  const api = await ctx.api();
  if (!how.movesMoney) {
    await ask(ctx, id, how, await getInvoice(ctx, id));
    const after = await api.call<Invoice>(how.operation, { params: { id } });
    return done(ctx, id, how, after);
  }
  // Charging or refunding an invoice moves money: the ledger's protocol (src/ledger/guard.ts).
  const guard = await ctx.moneyGuard({ noWait: flags.noWait });
  const { underApproval } = await import('../shared/approval.js');
  // Sent for approval, and waited for (--wait): the invoice as the approver's move left it.
  const approved = async () => done(ctx, id, how, await getInvoice(ctx, id));
  await underApproval(ctx, flags.waitForApproval, () => guard.run<Invoice, Invoice>({
    what: {
      key: `invoice:${id}`,
      operation: how.operation,
      target: id,
      requestedCents: null,
      what: `the ${how.action.replace(/ an invoice$/, '')} of invoice ${id}`,
      checkCommand: `payctl invoices get ${id}`,
    },
    proof: {
      look: () => getInvoice(ctx, id),
      // An earlier move of another kind left unresolved on this invoice is judged as what it was.
      proves: (intent, now) => ((APPLIED_WHEN[intent.operation] ?? how.appliedWhen)(now) ? { kind: 'applied', proof: null } : { kind: 'not_seen' }),
      // The invoice asked about, now in the state the move leads to; a removal may answer with nothing.
      answered: (_intent, answer) =>
        answer && answer.id !== undefined && answer.id !== id
          ? { kind: 'mismatch', why: `it is invoice ${String(answer.id)}, not ${id}` }
          : answer?.status !== undefined && answer.status !== how.leadsTo
            ? { kind: 'mismatch', why: `invoice ${id} is ${answer.status}, not ${how.leadsTo}` }
            : { kind: 'applied', proof: null },
      seen: (now) => now,
    },
    send: {
      async prepare(memory) {
        const before = await getInvoice(ctx, id);
        const earlier = appliedEarlier(memory, how.operation).at(-1);
        const already = earlier && `Invoice ${id} was already ${how.done.toLowerCase()} by payctl ${when(guard.ledger.local(earlier.created_at))} (${earlier.holder})`;
        // What the invoice still allows comes first: it is charged (refunded) whole, so one payctl
        // already moved and no longer open to the move has nothing left for it, and nothing to send again.
        if (already && before.status && !how.from.includes(before.status)) {
          await ctx.out.show(before, INVOICE_VIEW, { tableRow: invoiceRow, short: true });
          ctx.log.status(`${already} and is ${before.status} now; nothing was sent.`);
          return undefined;
        }
        const asked = already !== undefined && (await confirmDespiteEarlier(ctx, flags, already, `${how.verb} it again?`, how.action.replace(/ an invoice$/, ' it again')));
        await ask(ctx, id, how, before, asked);
        const cents = typeof before.amount === 'number' ? before.amount : null;
        return {
          record: { amount_cents: cents, before: JSON.stringify({ status: before.status }) },
          asked: {
            body: null,
            amountCents: cents,
            currency: before.currency ?? (await ctx.config.profile()).currency,
            summary: () => question(ctx, id, how, before),
            replay: ['invoices', how.action.split(' ')[0] as string, id, ...(flags.again ? ['--again'] : [])],
          },
          request: () => api.call<Invoice>(how.operation, { params: { id } }),
        };
      },
    },
    report: {
      async repeated(repeat) {
        await ctx.out.show(repeat.now, INVOICE_VIEW, { tableRow: invoiceRow, short: true });
        ctx.log.status(`Already done: invoice ${id} was ${how.done.toLowerCase()} by an earlier run (${describeOrigin(repeat.intent, guard.ledger)}) whose answer was lost; nothing was sent.`);
      },
      done: (after) => done(ctx, id, how, after),
    },
  }), approved);
}

async function ask(ctx: Factory, id: string, how: Step, before: Invoice, asked = false): Promise<void> {
  if (before.status && !how.from.includes(before.status)) {
    throw new UsageError(`invoice ${id} is ${before.status}; only a ${how.from.join(' or ')} invoice can be ${how.done.toLowerCase()}`);
  }
  if (!asked) await ctx.prompts.confirm(async () => `${await question(ctx, id, how, before)}?`, how.action);
  await ctx.service.noteSandbox();
}

/** `Refund R$ 29,90 of invoice … (Maria Silva)`: the buyer by name (by id when it cannot be read). */
async function question(ctx: Factory, id: string, how: Step, before: Invoice): Promise<string> {
  const amount = typeof before.amount === 'number' ? formatMoney(centsToDecimalString(before.amount), before.currency) : 'the amount';
  const customer = before.customer;
  return `${how.verb} ${amount} of invoice ${id}${customer ? ` (${await nameOrId(await ctx.api(), 'buyer', customer)})` : ''}`;
}

async function done(ctx: Factory, id: string, how: Step, after: Invoice): Promise<void> {
  await ctx.out.show(after, INVOICE_VIEW, { tableRow: invoiceRow, short: true });
  // A removal may answer with nothing (204, or an empty object): then there is no status to report.
  ctx.log.status(`${how.done} invoice ${id}${after.status ? `; status ${after.status}` : ''}`);
}

export function runRemove(ctx: Factory, args: ArgsOf<typeof remove>): Promise<void> {
  return step(ctx, args, {
    operation: 'invoices.remove',
    verb: 'Cancel',
    action: 'remove an invoice',
    from: ['pending', 'over-due'],
    movesMoney: false,
    appliedWhen: (i) => i.status === 'canceled',
    leadsTo: 'canceled',
    done: 'Canceled',
  });
}

export function runApprove(ctx: Factory, args: ArgsOf<typeof approve>, options: OptionsOf<typeof approve>): Promise<void> {
  return step(ctx, args, {
    operation: 'invoices.approve',
    verb: 'Charge',
    action: 'approve an invoice',
    from: ['pending', 'over-due', 'failed'],
    movesMoney: true,
    appliedWhen: APPLIED_WHEN['invoices.approve']!,
    leadsTo: 'paid',
    done: 'Approved',
  }, options);
}

export function runRefund(ctx: Factory, args: ArgsOf<typeof refund>, options: OptionsOf<typeof refund>): Promise<void> {
  return step(ctx, args, {
    operation: 'invoices.refund',
    verb: 'Refund',
    action: 'refund an invoice',
    from: ['paid'],
    movesMoney: true,
    appliedWhen: APPLIED_WHEN['invoices.refund']!,
    leadsTo: 'canceled',
    done: 'Refunded',
  }, options);
}
