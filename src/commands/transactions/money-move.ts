import type { Factory } from '../../factory.js';
import { NotAllowedError } from '../../errors.js';
import { describeOrigin, type Sending } from '../../ledger/guard.js';
import type { ApprovalRequest } from '../../ledger/policy/types.js';
import { formatMoney } from '../../output/format.js';
import { centsToDecimalString } from '../../validate/index.js';
import { amountFromFlags } from '../shared/amount.js';
import { confirmDespiteEarlier, moneyMoveFlags } from '../shared/again.js';
import { describeEarlier, earlierDetail, earlierMoves, snapshotOf, transactionProof } from './applied.js';
import { SaleFinder } from './reference.js';
import { describePayer, type Transaction } from './shared.js';
import { TRANSACTION_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { capture, refund } from './flags.js';

export interface MoneyBody {
  on_behalf_of: string;
  amount: number;
}

/** What differs between a refund and a capture; the flow around them is the same. */
export interface MoneyMove {
  operation: 'transactions.void' | 'transactions.capture';
  /** "refund", "capture": used in the question, the messages and `--yes required to …`. */
  action: string;
  done: string;
  /** What the amount defaults to, for a dry run (which reads nothing to work it out). */
  defaultAmount: string;
  /** The body, when the sale allows it; else a NotAllowedError (exit 6) naming what it allows. */
  build(tx: Transaction, requestedCents: number | undefined, fallbackSeller?: string): MoneyBody;
  /** What a sale with nothing left for a move of all of it is ("fully refunded"), else undefined. */
  nothingLeft(tx: Transaction): string | undefined;
  /** The service's refusal in words that say what to do instead, or undefined to leave it as it is. */
  explainRefusal?(err: unknown, before: Transaction): unknown;
}

/** The body `build` makes, or its refusal with what was already done on the sale; nothing was sent. */
function buildAllowed(move: MoneyMove, tx: Transaction, requested: number | undefined, seller: string | undefined, already: string | undefined): MoneyBody {
  try {
    return move.build(tx, requested, seller);
  } catch (err) {
    if (!(err instanceof NotAllowedError)) throw err;
    throw new NotAllowedError(`${err.message}${already ? `; it was ${already}` : ''}; nothing was sent`);
  }
}

/** What a move sends, once the sale is read and the question answered. */
interface MoneySending extends Sending<Transaction> {
  /** The amount sent, in the sale's currency, for the report. */
  shown: string;
}

/**
 * Find the sale, hold it in the ledger, resolve what earlier runs left unresolved on it, read it
 * (for the question, the default amount and what was already done on it), check what it allows,
 * ask, and send under the ledger's protocol (src/ledger/guard.ts): a lost answer is settled by
 * looking again, never by sending again.
 */
export async function runMoneyMove(ctx: Factory, args: ArgsOf<typeof capture | typeof refund>, options: OptionsOf<typeof capture | typeof refund>, move: MoneyMove): Promise<void> {
  const requested = amountFromFlags(options);
  const flags = moneyMoveFlags(options);
  // What a move needs of the Factory, asked for once (each is built on first use).
  const globals = ctx.globals;
  const log = ctx.log;
  const out = ctx.out;
  const prompts = ctx.prompts;
  const service = ctx.service;
  const id = await new SaleFinder({ prompts, globals, service, log }).saleId(args[0]);
  await service.requireApiKey();
  const profile = await ctx.config.profile();
  if (globals.dryRun) {
    // A dry run sends nothing at all, not even the read that finds the seller and the amount.
    const body = { on_behalf_of: "(the transaction's seller)", amount: requested ?? move.defaultAmount };
    return service.printDryRun(move.operation, { params: { id }, body });
  }
  const guard = await ctx.moneyGuard({ noWait: flags.noWait });
  // The sale as the service has it now: read before asking, and again to settle a lost answer.
  const look = async () => {
    const api = await service.api();
    return api.call('transactions.get', { params: { id } });
  };
  const { underApproval } = await import('../shared/approval.js');
  // Sent for approval, and waited for (--wait): the approver's send reported as this command reports its own.
  const approved = async (request: ApprovalRequest) => {
    const after = await look();
    await out.show(after, TRANSACTION_VIEW, { short: true });
    log.status(`${move.done} ${formatMoney(centsToDecimalString(request.amount_cents ?? 0), request.currency)} of transaction ${id} (${after.status})`);
  };
  await underApproval(ctx, flags.waitForApproval, () => guard.run<Transaction, Transaction, MoneySending>({
    what: {
      key: `transaction:${id}`,
      operation: move.operation,
      target: id,
      requestedCents: requested ?? null,
      what: `the ${move.action} of transaction ${id}`,
      checkCommand: `payctl transactions get ${id} --fields status,amount,history`,
    },
    proof: transactionProof(look),
    send: {
      async prepare(memory) {
        const before = await look();
        const earlier = earlierMoves(memory, move.operation, before, guard.ledger);
        // What the sale still allows comes first, then what was already done on it. A move of all of
        // it cannot move money twice: once made, nothing is left for it, and that is what it says.
        const finished = earlier.length > 0 && requested === undefined ? move.nothingLeft(before) : undefined;
        if (finished) {
          await out.show(before, TRANSACTION_VIEW, { short: true });
          log.status(`Transaction ${id} is already ${finished} (${earlierDetail(earlier, before.currency)}); nothing was sent.`);
          return undefined;
        }
        const already = earlier.length > 0 ? describeEarlier(earlier, move.operation, before.currency) : undefined;
        const body = buildAllowed(move, before, requested, profile.sellerId, already);
        const Action = move.action[0]!.toUpperCase() + move.action.slice(1);
        const shown = formatMoney(centsToDecimalString(body.amount), before.currency);
        const told = already && `Transaction ${id} was ${already}`;
        const api = await service.api();
        // An amount asked again is a probable duplicate (asked on a terminal, exit 11 elsewhere,
        // unless --again); all that remains is not, and its question names what was done before.
        if (told && requested !== undefined) {
          const asked = await confirmDespiteEarlier({ log, prompts, io: ctx.io, agent: ctx.agent }, flags, told, `${Action} ${shown} more?`, `${move.action} ${shown} more`);
          if (!asked) await prompts.confirm(async () => `${Action} ${shown} of transaction ${id} (${await describePayer(api, before)})?`, move.action);
        } else {
          await prompts.confirm(async () => `${told ? `${told}. ${Action} the ${shown} left` : `${Action} ${shown}`} of transaction ${id} (${await describePayer(api, before)})?`, move.action);
          if (told && globals.yes) log.status(`${told}.`);
        }
        await service.noteSandbox();
        return {
          shown,
          record: { amount_cents: body.amount, before: JSON.stringify(snapshotOf(before)) },
          asked: {
            body,
            amountCents: body.amount,
            currency: before.currency ?? profile.currency,
            summary: async () => `${Action} ${shown} of transaction ${id} (${await describePayer(api, before)})`,
            // The amount made concrete: an approver sends what was read now, never "all that remains" then.
            replay: ['transactions', move.action, id, '--amount-cents', String(body.amount), ...(flags.again ? ['--again'] : [])],
          },
          request: () => api.call<Transaction>(move.operation, { params: { id }, body }).catch((err: unknown) => Promise.reject(move.explainRefusal?.(err, before) ?? err)),
        };
      },
    },
    report: {
      async repeated(repeat) {
        await out.show(repeat.now, TRANSACTION_VIEW, { short: true });
        const amount = formatMoney(centsToDecimalString(repeat.intent.amount_cents ?? 0), repeat.now.currency);
        log.status(`Already done: the ${move.action} of ${amount} of transaction ${id} was applied by an earlier run (${describeOrigin(repeat.intent, guard.ledger)}) whose answer was lost; nothing was sent.`);
      },
      async done(after, sent) {
        await out.show(after, TRANSACTION_VIEW, { short: true });
        // Short enough for one line of an 80-column terminal.
        log.status(`${move.done} ${sent.shown} of transaction ${id} (${after.status})`);
      },
    },
  }), approved);
}
