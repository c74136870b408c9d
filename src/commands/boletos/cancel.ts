import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { describeOrigin, type Sending } from '../../ledger/guard.js';
import { formatMoney } from '../../output/format.js';
import { nameOrId } from '../../output/record-names.js';
import { decimalStringToCents } from '../../validate/index.js';
import { confirmDespiteEarlier, moneyMoveFlags } from '../shared/again.js';
import { describeEarlier, earlierDetail, earlierMoves, transactionMoveProof } from '../transactions/applied.js';
import { SaleFinder } from '../transactions/reference.js';
import { getTransaction, type Transaction } from '../transactions/shared.js';
import { TRANSACTION_VIEW } from '../transactions/view.js';
import { BOLETO_CANCELLATION_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { cancel } from './flags.js';

interface CancellationAnswer {
  status?: string;
  message?: string;
  [key: string]: unknown;
}

/** A cancellation to send, and what it is about: the sale as read before asking. */
interface Cancelling extends Sending<CancellationAnswer> {
  about: Record<string, unknown>;
}

/** The service's answer; a table adds what it was about. */
function show(ctx: Factory, answer: CancellationAnswer, about: Record<string, unknown>): Promise<void> {
  return ctx.out.show(answer, BOLETO_CANCELLATION_VIEW, { tableRow: (shown) => ({ ...about, ...shown }) });
}

/** Canceling a boleto withdraws a charge: it goes through the ledger (src/ledger/guard.ts). */
export async function run(ctx: Factory, args: ArgsOf<typeof cancel>, options: OptionsOf<typeof cancel>): Promise<void> {
  const flags = moneyMoveFlags(options);
  const id = await new SaleFinder(ctx).saleId(args[0]);
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) return ctx.service.printDryRun('boletos.cancel', { params: { id } });
  const guard = await ctx.moneyGuard({ noWait: flags.noWait });
  const { underApproval } = await import('../shared/approval.js');
  // Sent for approval, and waited for (--wait): the sale as the approver's cancellation left it.
  const approved = async () => {
    await ctx.out.show(await getTransaction(ctx, id), TRANSACTION_VIEW, { short: true });
    ctx.log.status(`Cancellation of the boleto of transaction ${id} requested`);
  };
  await underApproval(ctx, flags.waitForApproval, () => guard.run<Transaction, CancellationAnswer, Cancelling>({
    what: {
      key: `transaction:${id}`,
      operation: 'boletos.cancel',
      target: id,
      requestedCents: null,
      what: `the cancellation of the boleto of transaction ${id}`,
      checkCommand: `payctl transactions get ${id} --fields status,history`,
    },
    proof: {
      look: () => getTransaction(ctx, id),
      proves: transactionMoveProof,
      // The provider answers a request, not the boleto: its success status is its word.
      answered: () => ({ kind: 'applied', proof: null }),
      seen: (now) => ({ status: 'canceled', message: `The boleto of transaction ${id} is canceled (now ${now.status}).` }),
    },
    send: {
      async prepare(memory) {
        const tx = await getTransaction(ctx, id);
        const earlier = earlierMoves(memory, 'boletos.cancel', undefined, guard.ledger);
        if (tx.payment_type !== 'boleto' && tx.payment_type !== 'bolepix') {
          throw new UsageError(`transaction ${id} is a ${tx.payment_type ?? 'non-boleto'} payment; only a boleto can be canceled here (refund a card with 'payctl transactions refund')`);
        }
        const about = { transaction_id: id, amount: tx.amount, currency: tx.currency, customer: tx.customer, due_date: tx.payment_method?.expiration_date };
        // What the boleto still allows comes first: one canceled (by payctl or anyone) cannot be
        // canceled twice, so there is nothing to offer sending again; that is what was asked.
        if (tx.status === 'canceled') {
          const by = earlier.length > 0 ? ` (${earlierDetail(earlier)})` : '';
          const message = `The boleto of transaction ${id} is already canceled${by}; nothing was sent.`;
          await show(ctx, { status: 'canceled', message, transaction_id: id }, about);
          ctx.log.status(message);
          return undefined;
        }
        const asked = earlier.length > 0 && (await confirmDespiteEarlier(ctx, flags, `The boleto of transaction ${id} was ${describeEarlier(earlier, 'boletos.cancel')}`, 'Ask to cancel it again?', 'cancel it again'));
        const customer = tx.customer;
        // The buyer by name (by id when it cannot be read).
        const whose = async () => (customer ? ` (${await nameOrId(await ctx.api(), 'buyer', customer)})` : '');
        if (!asked) await ctx.prompts.confirm(async () => `Cancel the ${formatMoney(tx.amount ?? '0', tx.currency)} boleto of transaction ${id}${await whose()}?`, 'cancel a boleto');
        await ctx.service.noteSandbox();
        const api = await ctx.api();
        return {
          about,
          record: { before: JSON.stringify({ status: tx.status, history: (tx.history ?? []).map((h) => ({ id: h.id, operation_type: h.operation_type })) }) },
          asked: {
            body: null,
            amountCents: decimalStringToCents(tx.amount ?? '0'),
            currency: tx.currency ?? (await ctx.config.profile()).currency,
            summary: async () => `Cancel the ${formatMoney(tx.amount ?? '0', tx.currency)} boleto of transaction ${id}${await whose()}`,
            replay: ['boletos', 'cancel', id, ...(flags.again ? ['--again'] : [])],
          },
          request: () => api.call('boletos.cancel', { params: { id } }),
        };
      },
    },
    report: {
      async repeated(repeat) {
        await ctx.out.show(repeat.now, TRANSACTION_VIEW, { short: true });
        ctx.log.status(`Already done: the boleto of transaction ${id} was canceled by an earlier run (${describeOrigin(repeat.intent, guard.ledger)}) whose answer was lost; nothing was sent.`);
      },
      async done(result, { about }) {
        await show(ctx, result, about);
        ctx.log.status(result.message ?? `Cancellation of the boleto of transaction ${id} requested`);
      },
    },
  }), approved);
}
