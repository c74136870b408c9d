import { collector } from '../platform/runtime.js';
import { catchUp, recurrenceDueDay } from './catch-up.js';
import { DAY_SECONDS, type SandboxClock } from './clock.js';
import { throwProblems } from './errors.js';
import type { JsonObject } from './http.js';
import { planCreateTransaction } from './transactions-create.js';
import { approve } from './transactions.js';
import type { Session } from './db/session.js';
import { applyChange, mutateInSteps, stateOf } from './store.js';
import { calendarDate, msOfIso } from './time.js';
import type { SandboxState } from './types.js';

// A volume of trading, for rehearsing exports and measuring them: the sandbox trades forward on
// its own clock for a number of days, with sales spread evenly over them, through the same code a
// POST /transactions runs (fees, receivables, ledger), and whatever falls due on the way (payouts,
// billings) happens in order. The clock ends that many days later.

export const MAX_SALES = 1_000_000;
export const MAX_DAYS = 3660;

export interface VolumeSpec {
  sales: number;
  days: number;
  /** This request trades sales [first, first + sales) of a volume of `total` (a client sends a large one in parts). */
  first: number;
  total: number;
}

function wholeNumber(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

export function parseVolume(body: JsonObject): VolumeSpec {
  const problems = [];
  const { sales } = body;
  const days = body.days ?? 30;
  const first = body.first ?? 0;
  const total = body.total ?? sales;
  if (!wholeNumber(sales, 1, MAX_SALES)) problems.push({ field: 'sales', message: `must be a whole number from 1 to ${MAX_SALES}` });
  if (!wholeNumber(days, 1, MAX_DAYS)) problems.push({ field: 'days', message: `must be a whole number of days from 1 to ${MAX_DAYS}` });
  if (!wholeNumber(total, 1, MAX_SALES)) problems.push({ field: 'total', message: `must be a whole number from 1 to ${MAX_SALES}` });
  if (!wholeNumber(first, 0, MAX_SALES)) problems.push({ field: 'first', message: `must be a whole number from 0 to ${MAX_SALES}` });
  else if (problems.length === 0 && first + (sales as number) > (total as number)) problems.push({ field: 'first', message: 'first + sales must not pass total' });
  throwProblems(problems);
  return { sales: sales as number, days: days as number, first: first as number, total: total as number };
}

/** Repeatable amounts (R$ 5,00 to R$ 500,00), so two runs of a benchmark list the same money. */
function amountCents(i: number): number {
  return 500 + ((i * 7919) % 49_501);
}

const CARDS = ['4111111111111111', '5555555555554444'];

/** What every sale of a batch names alike: the buyer a boleto bills, a card's expiry year. */
interface BatchTerms {
  buyer: string;
  expirationYear: string;
}

function batchTerms(state: SandboxState): BatchTerms {
  return { buyer: state.buyers.keys()[0] ?? '', expirationYear: String(new Date().getUTCFullYear() + 20) };
}

function saleBody(state: SandboxState, i: number, terms: BatchTerms): JsonObject {
  const common = { on_behalf_of: state.seller.id, description: `Generated sale ${i + 1}`, reference_id: `generated-${i + 1}`, currency: 'BRL' };
  // Seven card sales in ten, two PIX, one boleto: roughly a Brazilian online shop's mix.
  const kind = i % 10;
  if (kind === 7 || kind === 8) return { ...common, payment_type: 'pix', amount: amountCents(i) };
  if (kind === 9) return { ...common, payment_type: 'boleto', customer: terms.buyer, amount: amountCents(i) };
  return {
    ...common,
    payment_type: 'credit',
    capture: true,
    source: {
      usage: 'single_use',
      amount: amountCents(i),
      currency: 'BRL',
      type: 'card',
      card: { card_number: CARDS[i % 2], holder_name: 'CLIENTE GERADO', expiration_month: '12', expiration_year: terms.expirationYear, security_code: '123' },
    },
  };
}

export interface VolumeReport {
  now: string;
  offset_seconds: number;
  transactions: number;
  transfers: number;
}

/** Sales per write transaction: small enough to keep memory flat and a signal heard, large enough to write fast. */
const BATCH = 2_000;
/** Sales per change within it, at most. */
const SALES_PER_CHANGE = 50;

/**
 * Receivables paid out in one change at most. Generated sales bunch up: a million over 30 days
 * make some 100,000 receivables fall due on one day, and paying them out in one change held them
 * all (370 MB for a million sales, 224 MB for 100,000).
 */
const PAYOUT_SLICE = 1_000;

/** Catches up to `at` in changes of at most PAYOUT_SLICE payouts each; returns the transfers made. */
function catchUpInSlices(session: Session, clock: SandboxClock, at: () => Date, events: boolean): number {
  let transfers = 0;
  for (;;) {
    const report = applyChange(session, clock, (state) => catchUp(state, at(), { payoutLimit: PAYOUT_SLICE }), { events });
    session.forget();
    transfers += report.transfers.length;
    if (!report.more) return transfers;
  }
}

/**
 * Trades `spec` forward in batches, each its own write transaction, with the clock moved along
 * with the sales: a run stopped half way keeps the sales it made, on a consistent clock.
 */
export async function generateVolume(stateDir: string, spec: VolumeSpec, clock: SandboxClock): Promise<VolumeReport> {
  let made = 0;
  let transfers = 0;
  let start: number | undefined;
  let startOffset = 0;
  const span = spec.days * DAY_SECONDS * 1000;
  // The clock's offset after `done` sales of the whole volume, counted from where this part began:
  // the parts of a volume add up to exactly its days.
  const offsetAfter = (done: number) => Math.floor((done / spec.total) * spec.days * DAY_SECONDS);
  const step = (session: Session): VolumeReport | undefined => {
    if (start === undefined) {
      transfers += catchUpInSlices(session, clock, clock, true);
      applyChange(session, clock, (state) => {
        startOffset = state.clock.offset_seconds;
      });
      // Where the whole volume began: the parts before this one moved the clock already.
      start = clock().getTime() - (spec.first / spec.total) * span;
    }
    if (made > 0 && made % (BATCH * 5) === 0) {
      // A run of a million sales leaves little alive but allocates gigabytes, and V8 lets the heap
      // grow to hundreds of MB before it collects in full; a full collection, waited for, every
      // few batches (about 0.1 s each time) keeps a long run's memory flat.
      collector()?.();
    }
    const end = Math.min(spec.sales, made + BATCH);
    // Looked up once a batch (another request may have added a subscription since the last) and
    // after each catch-up: a sale changes no recurrence, only when payouts next fall due.
    let recurrence = recurrenceDueDay(stateOf(session));
    const terms = batchTerms(stateOf(session));
    const timeOf = (sale: number) => new Date((start as number) + Math.floor(((spec.first + sale + 0.5) * span) / spec.total));
    /** Whether payouts or billings fall due by sale `sale`: they happen before it, in order. */
    const dueBy = (sale: number) => {
      const at = timeOf(sale);
      const payout = (session.value('payouts') as SandboxState['payouts'] | undefined)?.next;
      // Recurrence falls due at the start of its day, payouts at their hour (payouts.ts).
      return (recurrence !== undefined && recurrence <= calendarDate(at)) || (payout != null && msOfIso(payout) <= at.getTime());
    };
    while (made < end) {
      if (dueBy(made)) {
        const at = timeOf(made);
        transfers += catchUpInSlices(session, clock, () => at, false);
        recurrence = recurrenceDueDay(stateOf(session));
      }
      // Sales in one change, up to the next that something falls due before: the seller and
      // its account are read and written once for them all, not once a sale.
      applyChange(session, clock, (state) => {
        do {
          const at = timeOf(made);
          const created = planCreateTransaction(saleBody(state, spec.first + made, terms), at)(state, at);
          if (created.txn.status === 'pending') approve(created, state, at);
          made += 1;
        } while (made < end && made % SALES_PER_CHANGE !== 0 && !dueBy(made));
      }, { events: false });
      // What the sales loaded is written; holding it would make memory grow with the volume.
      session.forget();
    }
    applyChange(session, clock, (state) => {
      state.clock.offset_seconds = startOffset + offsetAfter(spec.first + made) - offsetAfter(spec.first);
      clock.adopt(state);
    });
    if (made < spec.sales) return undefined;
    transfers += catchUpInSlices(session, clock, clock, true);
    return applyChange(session, clock, (state) => ({ now: clock().toISOString(), offset_seconds: state.clock.offset_seconds, transactions: spec.sales, transfers }));
  };
  return mutateInSteps(stateDir, clock, step);
}
