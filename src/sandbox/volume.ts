import { catchUp } from './catch-up.js';
import { DAY_SECONDS, type SandboxClock } from './clock.js';
import { invalidParameters } from './errors.js';
import type { JsonObject } from './http.js';
import { planCreateTransaction } from './transactions-create.js';
import { approve } from './transactions.js';
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
}

export function parseVolume(body: JsonObject): VolumeSpec {
  const problems = [];
  const sales = body.sales;
  const days = body.days ?? 30;
  if (typeof sales !== 'number' || !Number.isInteger(sales) || sales < 1 || sales > MAX_SALES) problems.push({ field: 'sales', message: `must be a whole number from 1 to ${MAX_SALES}` });
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > MAX_DAYS) problems.push({ field: 'days', message: `must be a whole number of days from 1 to ${MAX_DAYS}` });
  if (problems.length > 0) throw invalidParameters(problems);
  return { sales: sales as number, days: days as number };
}

/** Repeatable amounts (R$ 5,00 to R$ 500,00), so two runs of a benchmark list the same money. */
function amountCents(i: number): number {
  return 500 + ((i * 7919) % 49_501);
}

const CARDS = ['4111111111111111', '5555555555554444'];

function saleBody(state: SandboxState, i: number): JsonObject {
  const common = { on_behalf_of: state.seller.id, description: `Generated sale ${i + 1}`, reference_id: `generated-${i + 1}`, currency: 'BRL' };
  // Seven card sales in ten, two PIX, one boleto: roughly a Brazilian online shop's mix.
  const kind = i % 10;
  if (kind === 7 || kind === 8) return { ...common, payment_type: 'pix', amount: amountCents(i) };
  if (kind === 9) return { ...common, payment_type: 'boleto', customer: Object.keys(state.buyers)[0] ?? '', amount: amountCents(i) };
  return {
    ...common,
    payment_type: 'credit',
    capture: true,
    source: {
      usage: 'single_use',
      amount: amountCents(i),
      currency: 'BRL',
      type: 'card',
      card: { card_number: CARDS[i % 2], holder_name: 'CLIENTE GERADO', expiration_month: '12', expiration_year: String(new Date().getUTCFullYear() + 20), security_code: '123' },
    },
  };
}

export interface VolumeReport {
  now: string;
  offset_seconds: number;
  transactions: number;
  transfers: number;
}

/** Runs `spec` on `state` (not tracked: the caller writes a whole new snapshot after). */
export function generateVolume(state: SandboxState, spec: VolumeSpec, clock: SandboxClock): VolumeReport {
  const start = clock().getTime();
  const span = spec.days * DAY_SECONDS * 1000;
  const transfersBefore = state.transfers.length;
  for (let i = 0; i < spec.sales; i += 1) {
    const at = new Date(start + Math.floor(((i + 0.5) * span) / spec.sales));
    catchUp(state, at);
    const body = saleBody(state, i);
    const created = planCreateTransaction(body, at)(state, at);
    if (created.txn.status === 'pending') approve(created, state, at);
  }
  state.clock.offset_seconds += spec.days * DAY_SECONDS;
  clock.adopt(state);
  catchUp(state, clock());
  return { now: clock().toISOString(), offset_seconds: state.clock.offset_seconds, transactions: spec.sales, transfers: state.transfers.length - transfersBefore };
}
