// Finding a sale from what the customer says: who they are (`--customer`: a buyer id, their e-mail
// or CPF/CNPJ), the card (`--card-last4`, `--holder`) and the amount (`--amount`, `--amount-min`,
// `--amount-max`). The provider's list filters none of these (its query takes status, payment
// type, reference and dates), so payctl pages through a bounded window, by default the last 30
// days (said on stderr; --from/--to widen it), and keeps what matches as it reads: streamed,
// stopping once --limit sales matched (every one with --all), with the progress bar on a terminal.
import type { ApiClient } from '../../api/client.js';
import type { Factory } from '../../factory.js';
import { ApiError, UsageError, ValidationError } from '../../errors.js';
import { dayStartSeconds, parseAmount } from '../../validate/index.js';
import { optionalString } from '../shared/input.js';
import { defaultToday, localToday } from '../shared/dates.js';
import type { Buyer } from '../buyers/shared.js';
import type { FindFlagValues } from './find-flags.js';

/** The window searched when --from and --to are not given. */
export const FIND_WINDOW_DAYS = 30;

export interface FindFilters {
  /** The buyers the sale must be of. */
  customers?: Set<string>;
  last4?: string;
  /** Folded (lower case, no accents). */
  holder?: string;
  minCents?: number;
  maxCents?: number;
}

/** Lower case, accents off, spaces squeezed: "JOÃO  da Silva" and "joao da silva" are one. */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

const cents = (value: unknown) => {
  if (typeof value !== 'string' || !/^-?\d+(\.\d{1,2})?$/.test(value)) return undefined;
  const [whole = '0', fraction = ''] = value.replace('-', '').split('.');
  const n = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return value.startsWith('-') ? -n : n;
};

/** Whether a transaction matches every filter given. The amount is what it was sold for (original_amount). */
export function matches(tx: Record<string, unknown>, filters: FindFilters): boolean {
  if (filters.customers && !(typeof tx.customer === 'string' && filters.customers.has(tx.customer))) return false;
  const method = (tx.payment_method ?? {}) as Record<string, unknown>;
  if (filters.last4 !== undefined && method.last4_digits !== filters.last4) return false;
  if (filters.holder !== undefined && !(typeof method.holder_name === 'string' && fold(method.holder_name).includes(filters.holder))) return false;
  if (filters.minCents !== undefined || filters.maxCents !== undefined) {
    const amount = cents(tx.original_amount) ?? cents(tx.amount);
    if (amount === undefined) return false;
    if (filters.minCents !== undefined && amount < filters.minCents) return false;
    if (filters.maxCents !== undefined && amount > filters.maxCents) return false;
  }
  return true;
}

/** The buyers --customer names: a buyer id as it is; an e-mail or a CPF/CNPJ looked up. */
async function customersOf(ctx: Factory, value: string): Promise<Set<string>> {
  const given = value.trim();
  if (/^[0-9a-f]{32}$/.test(given)) return new Set([given]);
  const api = await ctx.api();
  if (given.includes('@')) return new Set((await buyersMatching(api, given)).map((b) => b.id as string));
  if (/^[\d.\-/\s]+$/.test(given)) {
    const { validateTaxpayerId } = await import('../../validate/taxpayer.js');
    const taxpayerId = validateTaxpayerId(given, '--customer');
    try {
      const buyer = await api.call('buyers.search', { query: { taxpayer_id: taxpayerId } });
      return new Set([buyer.id as string]);
    } catch (err) {
      if (err instanceof ApiError && err.details.httpStatus === 404) return new Set();
      throw err;
    }
  }
  throw new ValidationError('--customer', `"${given}" is not a buyer id, an e-mail or a CPF/CNPJ; to find a buyer by name: payctl buyers find "${given}"`);
}

/**
 * Buyers whose e-mail is `query` (any case), whose CPF/CNPJ is it (punctuation ignored), or whose
 * name holds it (any case, accents ignored). The provider searches buyers only by CPF/CNPJ, so the
 * list of buyers is read through, page by page.
 */
export async function buyersMatching(api: ApiClient, query: string): Promise<Buyer[]> {
  const wanted = fold(query);
  const digits = query.replace(/\D/g, '');
  const isDocument = /^[\d.\-/\s]+$/.test(query.trim()) && (digits.length === 11 || digits.length === 14);
  const found: Buyer[] = [];
  for await (const page of api.pages('buyers.list', { query: {} }, { limit: 100, all: true })) {
    for (const buyer of page as Buyer[]) {
      const name = fold([buyer.first_name, buyer.last_name].filter(Boolean).join(' '));
      const email = typeof buyer.email === 'string' ? buyer.email.toLowerCase() : '';
      const document = typeof buyer.taxpayer_id === 'string' ? buyer.taxpayer_id.replace(/\D/g, '') : '';
      if (query.includes('@') ? email === query.trim().toLowerCase() : isDocument ? document === digits : name.includes(wanted)) found.push(buyer);
    }
  }
  return found;
}

/** The search flags, checked and resolved (a buyer's e-mail or CPF to its id): before anything is listed. */
export async function findFilters(ctx: Factory, options: FindFlagValues): Promise<FindFilters> {
  const filters: FindFilters = {};
  const last4 = optionalString(options.cardLast4);
  if (last4 !== undefined) {
    if (!/^\d{4}$/.test(last4.trim())) throw new ValidationError('--card-last4', `"${last4}" is not the last 4 digits of a card`);
    filters.last4 = last4.trim();
  }
  const holder = optionalString(options.holder);
  if (holder !== undefined) {
    if (fold(holder).length < 2) throw new ValidationError('--holder', 'give at least 2 letters of the name on the card');
    filters.holder = fold(holder);
  }
  const exact = optionalString(options.amount);
  const min = optionalString(options.amountMin);
  const max = optionalString(options.amountMax);
  if (exact !== undefined && (min !== undefined || max !== undefined)) throw new UsageError('give --amount, or --amount-min/--amount-max, not both');
  if (exact !== undefined) filters.minCents = filters.maxCents = parseAmount(exact, '--amount');
  if (min !== undefined) filters.minCents = parseAmount(min, '--amount-min');
  if (max !== undefined) filters.maxCents = parseAmount(max, '--amount-max');
  if (filters.minCents !== undefined && filters.maxCents !== undefined && filters.minCents > filters.maxCents) throw new UsageError(`--amount-min ${min} is more than --amount-max ${max}`);
  const customer = optionalString(options.customer);
  if (customer !== undefined) {
    await ctx.service.requireApiKey();
    filters.customers = await customersOf(ctx, customer);
    if (filters.customers.size === 0) ctx.log.status(`no buyer is ${customer}: no sale can match`);
  }
  return filters;
}

/** The first day of the search window: FIND_WINDOW_DAYS before today on the service's clock (a sandbox's, which `sandbox advance` moves ahead). */
async function windowStart(ctx: Factory): Promise<string> {
  const today = ctx.globals.dryRun ? localToday() : await defaultToday(ctx);
  const start = new Date(`${today}T12:00:00Z`);
  start.setUTCDate(start.getUTCDate() - FIND_WINDOW_DAYS);
  return start.toISOString().slice(0, 10);
}

/** The start of the search window as a list query takes it (Unix seconds of its first local day). */
export async function windowStartSeconds(ctx: Factory): Promise<number> {
  return dayStartSeconds(await windowStart(ctx), 'local');
}

/** The search window: --from/--to as given, else the last FIND_WINDOW_DAYS days, said on stderr. */
export async function findWindow<O extends { from?: string; to?: string }>(ctx: Factory, options: O): Promise<O> {
  if (options.from !== undefined || options.to !== undefined) return options;
  const from = await windowStart(ctx);
  ctx.log.status(`searching the sales of the last ${FIND_WINDOW_DAYS} days (since ${from}); --from/--to widen it`);
  return { ...options, from };
}

/** Pages of what matches, as the pages of the window come: at most `limit` sales unless `all`. */
export async function* keepMatching(pages: AsyncIterable<unknown[]>, filters: FindFilters, limit: number, all: boolean): AsyncGenerator<unknown[]> {
  let kept = 0;
  for await (const page of pages) {
    const matching = (page as Array<Record<string, unknown>>).filter((tx) => matches(tx, filters));
    const taken = all ? matching : matching.slice(0, limit - kept);
    kept += taken.length;
    if (taken.length > 0) yield taken;
    if (!all && kept >= limit) return;
  }
}
