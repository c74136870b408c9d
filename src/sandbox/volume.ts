import { collector } from '../platform/runtime.js';
import { catchUp, recurrenceDueDay } from './catch-up.js';
import { DAY_SECONDS, type SandboxClock } from './clock.js';
import { throwProblems } from './errors.js';
import type { JsonObject } from './http.js';
import { planCreateTransaction } from './transactions-create.js';
import { approve } from './transactions.js';
import type { Session } from './db/session.js';
import { applyChange, compactState, mutateInSteps, stateOf } from './store.js';
import { calendarDate, DAY_MS, msOfIso } from './time.js';
import type { SandboxState } from './types.js';
import { buyerPool } from './volume-buyers.js';
import { Customers } from './volume-customers.js';
import { FollowUpQueue, referenceOf, runFollowUp, type Due } from './volume-follow-ups.js';
import { LONGEST_FOLLOW_UP_MS, saleDetails, saleFate, type SaleDetails, type SaleFate } from './volume-sales.js';

// A volume of trading, for rehearsing support, month-ends and exports and for measuring them: the
// sandbox trades forward on its own clock for a number of days, with sales spread evenly over them,
// to the buyers of a shop (volume-buyers.ts) through the same code a POST /transactions runs (fees,
// receivables, ledger); what becomes of each sale (volume-sales.ts: a boleto paid, a refund, a
// dispute) and whatever falls due on the way (payouts, billings) happens in order. The clock ends
// that many days later. The same seed makes the same buyers, sales and fates.

export const MAX_SALES = 1_000_000;
export const MAX_DAYS = 3660;
/** About three months: a month-end or two in the middle, with the card sales of the month before paid out in it. */
export const DEFAULT_DAYS = 90;
export const MAX_SEED = 2_147_483_647;

export interface VolumeSpec {
  sales: number;
  days: number;
  /** This request trades sales [first, first + sales) of a volume of `total` (a client sends a large one in parts). */
  first: number;
  total: number;
  seed: number;
}

function wholeNumber(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

export function parseVolume(body: JsonObject): VolumeSpec {
  const problems = [];
  const { sales } = body;
  const days = body.days ?? DEFAULT_DAYS;
  const first = body.first ?? 0;
  const total = body.total ?? sales;
  const seed = body.seed ?? 1;
  if (!wholeNumber(sales, 1, MAX_SALES)) problems.push({ field: 'sales', message: `must be a whole number from 1 to ${MAX_SALES}` });
  if (!wholeNumber(days, 1, MAX_DAYS)) problems.push({ field: 'days', message: `must be a whole number of days from 1 to ${MAX_DAYS}` });
  if (!wholeNumber(total, 1, MAX_SALES)) problems.push({ field: 'total', message: `must be a whole number from 1 to ${MAX_SALES}` });
  if (!wholeNumber(seed, 0, MAX_SEED)) problems.push({ field: 'seed', message: `must be a whole number from 0 to ${MAX_SEED}` });
  if (!wholeNumber(first, 0, MAX_SALES)) problems.push({ field: 'first', message: `must be a whole number from 0 to ${MAX_SALES}` });
  else if (problems.length === 0 && first + (sales as number) > (total as number)) problems.push({ field: 'first', message: 'first + sales must not pass total' });
  throwProblems(problems);
  return { sales: sales as number, days: days as number, first: first as number, total: total as number, seed: seed as number };
}

/** What sale number `n` of a volume is: its kind and fate, what it sells to whom. */
interface Planned {
  fate: SaleFate;
  sale: SaleDetails;
}

function planned(spec: VolumeSpec, n: number): Planned {
  const fate = saleFate(spec.seed, n);
  return { fate, sale: saleDetails(spec.seed, n, fate.kind, buyerPool(spec.total)) };
}

/**
 * Sale number `n` of a volume, made at `at`, by its kind: a card sale on one of its buyer's cards
 * on file (in instalments or not), a boleto or a PIX billed to its buyer; a PIX the buyer pays is
 * paid `gapMs` later at most (before the next sale). Returns where it is stored.
 */
function makeSale(state: SandboxState, customers: Customers, n: number, { fate, sale }: Planned, at: Date, gapMs: number): number {
  const common = { on_behalf_of: state.seller.id, description: sale.description, reference_id: referenceOf(n), currency: 'BRL' };
  const body =
    fate.kind === 'credit'
      ? {
          ...common,
          payment_type: 'credit',
          capture: true,
          source: { usage: 'single_use', amount: sale.cents, currency: 'BRL', type: 'card', card: { id: customers.card(state, sale.buyer, sale.card, at) } },
          ...(sale.installments > 1 ? { installment_plan: { number_installments: sale.installments } } : {}),
        }
      : { ...common, payment_type: fate.kind, customer: customers.buyer(state, sale.buyer, at), amount: sale.cents };
  const created = planCreateTransaction(body, at)(state, at);
  if (fate.pixPaidAfterMs !== undefined) approve(created, state, new Date(at.getTime() + Math.max(0, Math.min(fate.pixPaidAfterMs, gapMs - 1))));
  return state.transactions.length - 1;
}

export interface VolumeReport {
  now: string;
  offset_seconds: number;
  transactions: number;
  transfers: number;
  /** Buyers registered (a buyer an earlier volume of the seed registered buys again instead). */
  buyers: number;
}

/**
 * Sales per write transaction: as many as the CLI sends in a request, so a part lands whole or not
 * at all. A commit writes each page its sales touched once, and some indexes take each sale's
 * entry on a page of their own (the index of sales by buyer, one of 50,000): 2,000 sales a commit
 * rewrote most of that index every time, and wrote half as much again to the log as 10,000 do.
 * Memory stays flat (each change lets go of what it read); the event loop runs between batches.
 */
const BATCH = 10_000;
/** Sales between two full collections of the heap (see below). */
const COLLECT_EVERY = 10_000;
/** Sales and follow-ups per change within it, at most. */
const ITEMS_PER_CHANGE = 50;

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

/** What comes next in a volume, `at` milliseconds into it: a follow-up, or else the next sale. */
interface Next {
  at: number;
  due?: Due;
}

/**
 * Trades `spec` forward in batches, each its own write transaction, with the clock moved along
 * with the sales: a run stopped half way keeps the sales it made, on a consistent clock.
 *
 * Times are counted in milliseconds from the volume's start: sale n at relative(n). A follow-up of
 * a sale happens before the first sale at or after its moment, so each part of a volume runs those
 * that fall after the sale before its first and by its last, and the last part those up to the
 * volume's end: a part finds the follow-ups of the parts before it by drawing their fates again.
 */
export async function generateVolume(stateDir: string, spec: VolumeSpec, clock: SandboxClock): Promise<VolumeReport> {
  let made = 0;
  let transfers = 0;
  let start: number | undefined;
  let startOffset = 0;
  const span = spec.days * DAY_MS;
  // The clock's offset after `done` sales of the whole volume, counted from where this part began:
  // the parts of a volume add up to exactly its days.
  const offsetAfter = (done: number) => Math.floor((done / spec.total) * spec.days * DAY_SECONDS);
  const relative = (n: number) => Math.floor(((n + 0.5) * span) / spec.total);
  const last = spec.first + spec.sales - 1;
  const since = spec.first === 0 ? -Infinity : relative(spec.first - 1);
  let until = relative(last);
  const customers = new Customers(spec.seed);
  const queue = new FollowUpQueue();
  /** Queues the follow-ups of sale `n` that fall to this part. */
  const queueFollowUps = (n: number, fate = saleFate(spec.seed, n), position?: number) => {
    for (const followUp of fate.followUps) {
      const at = relative(n) + followUp.afterMs;
      if (at > since && at <= until) queue.push({ at, sale: n, followUp, position });
    }
  };
  const step = (session: Session): VolumeReport | undefined => {
    if (start === undefined) {
      transfers += catchUpInSlices(session, clock, clock, true);
      applyChange(session, clock, (state) => {
        startOffset = state.clock.offset_seconds;
      });
      // Where the whole volume began: the parts before this one moved the clock already.
      start = clock().getTime() - (spec.first / spec.total) * span;
      // The last part runs what falls due up to where it leaves the clock.
      if (last === spec.total - 1) until = clock().getTime() + (offsetAfter(spec.total) - offsetAfter(spec.first)) * 1000 - start;
      for (let n = spec.first - 1; n >= 0 && relative(n) + LONGEST_FOLLOW_UP_MS > since; n -= 1) queueFollowUps(n);
    }
    const begin = start;
    const traded = spec.first + made;
    if (traded > 0 && traded % COLLECT_EVERY === 0) {
      // A run of a million sales leaves little alive but allocates gigabytes, and V8 lets the heap
      // grow to hundreds of MB before it collects in full; a full collection, waited for, every
      // 10,000 sales of the whole volume (about 0.1 s each time), whatever its parts, keeps a long
      // run's memory flat.
      collector()?.();
    }
    const end = Math.min(spec.sales, made + BATCH);
    const from = made;
    const batch = Array.from({ length: end - from }, (_, i) => planned(spec, spec.first + from + i));
    customers.lookUp(stateOf(session), batch.map((p) => p.sale.buyer), clock());
    // Looked up once a batch (another request may have added a subscription since the last) and
    // after each catch-up: a sale changes no recurrence, only when payouts next fall due.
    let recurrence = recurrenceDueDay(stateOf(session));
    /** Whether payouts or billings fall due by `offset` into the volume: they happen before what happens then, in order. */
    const dueBy = (offset: number) => {
      const at = new Date(begin + offset);
      const payout = (session.value('payouts') as SandboxState['payouts'] | undefined)?.next;
      // Recurrence falls due at the start of its day, payouts at their hour (payouts.ts).
      return (recurrence !== undefined && recurrence <= calendarDate(at)) || (payout != null && msOfIso(payout) <= at.getTime());
    };
    /** The next follow-up due by the next sale, or the next sale of this batch; undefined once the batch is done. */
    const next = (): Next | undefined => {
      const sale = made < spec.sales ? relative(spec.first + made) : Infinity;
      const due = queue.peek();
      if (due && due.at <= until && due.at <= sale) return { at: due.at, due };
      return made < end ? { at: sale } : undefined;
    };
    const run = (state: SandboxState, item: Next) => {
      const at = new Date(begin + item.at);
      if (item.due) {
        queue.pop();
        runFollowUp(state, item.due, at);
        return;
      }
      const n = spec.first + made;
      const gap = (n < spec.total - 1 ? relative(n + 1) : span) - item.at;
      const plan = batch[made - from] as Planned;
      queueFollowUps(n, plan.fate, makeSale(state, customers, n, plan, at, gap));
      made += 1;
    };
    let item = next();
    while (item) {
      if (dueBy(item.at)) {
        const at = new Date(begin + item.at);
        transfers += catchUpInSlices(session, clock, () => at, false);
        recurrence = recurrenceDueDay(stateOf(session));
      }
      // Sales and follow-ups in one change, up to the next that something falls due before: the
      // seller and its account are read and written once for them all, not once each.
      applyChange(session, clock, (state) => {
        let count = 0;
        do {
          run(state, item as Next);
          count += 1;
          item = next();
        } while (item && count < ITEMS_PER_CHANGE && !dueBy(item.at));
      }, { events: false });
      // What they loaded is written; holding it would make memory grow with the volume.
      session.forget();
    }
    applyChange(session, clock, (state) => {
      state.clock.offset_seconds = startOffset + offsetAfter(spec.first + made) - offsetAfter(spec.first);
      clock.adopt(state);
    });
    if (made < spec.sales) return undefined;
    transfers += catchUpInSlices(session, clock, clock, true);
    return applyChange(session, clock, (state) => ({
      now: clock().toISOString(),
      offset_seconds: state.clock.offset_seconds,
      transactions: spec.sales,
      transfers,
      buyers: customers.registered,
    }));
  };
  const report = await mutateInSteps(stateDir, clock, step);
  // The volume's last part: what its parts wrote is packed once, for all of them.
  if (spec.first + spec.sales === spec.total) await compactState(stateDir);
  return report;
}
