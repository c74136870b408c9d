// The names a person knows records by, where an object or a question refers to them by id: a buyer
// by name (or e-mail), a card as "MasterCard ••••4444", a seller by its name, a plan by its name, a
// subscription by its description. A name read from the service costs a request: each record is
// read once per command (the reads are kept with the command's API client), only where a person
// reads (a view or a list on a terminal, a question, a status line; see Printer), and a record that
// cannot be read, or reads as another one or as nothing nameable, is left to be shown by its id:
// never an error. A name is a nicety, so its reads are bounded: a few at once, each sent once with
// a short deadline, at most NAMES_PER_COMMAND records a command, and none after the service has
// been slow or failing for one (what is left keeps its id; namesLeftOut says why).
import type { ApiClient } from '../api/client.js';
import { ApiError, CliError, NetworkError } from '../errors.js';
import type { Operation } from '../provider/endpoints.js';
import { counted } from '../platform/plural.js';
import { sanitize } from './sanitize.js';

type Item = Record<string, unknown>;

/** What an id can refer to that has a name. */
export type RecordKind = 'buyer' | 'card' | 'seller' | 'plan' | 'subscription';

export interface RecordRef {
  kind: RecordKind;
  id: string;
}

/** Which kind of record a field or column holds the id of: always the one, or as the item says (an account's owner). */
export type NamesOf = RecordKind | ((item: Record<string, unknown>) => RecordKind | undefined);

/**
 * The most records a command reads names for: a page of 100 sales of 100 different buyers, and
 * the few plans or sellers beside them, is named whole; past it (a long list read with --all) the
 * others keep their ids.
 */
export const NAMES_PER_COMMAND = 120;

/** Names read at once: a page of different buyers costs a few round trips, not one after another. */
export const NAMES_AT_ONCE = 8;

/**
 * How long a name's one read may take (--timeout, when shorter): a list waits for its names at most
 * about this long, since the first read the service is slow to answer stops the rest.
 */
export const NAME_WITHIN_MS = 3_000;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** "Maria Silva": a person's first and last names, as far as given (empty when neither is). */
export function buyerName(person: Item): string {
  return [text(person.first_name), text(person.last_name)].filter(Boolean).join(' ');
}

/** A company seller's business name, else the person's name (empty when it has neither). */
export function sellerName(seller: Item): string {
  return text(seller.business_name) ?? buyerName(seller);
}

/**
 * "MasterCard ••••4444", the brand as the service spells it; a card known only by its first
 * digits (a token's, a receipt's) "Visa 4111••••". Undefined when nothing of it is known. A card
 * on file, a sale's payment method, a token's or a receipt's card alike.
 */
export function cardName(card: Item | null | undefined): string | undefined {
  const brand = text(card?.card_brand);
  const last4 = text(card?.last4_digits);
  const first4 = text(card?.first4_digits);
  if (last4 !== undefined) return `${brand ?? 'Card'} ••••${last4}`;
  if (first4 !== undefined) return `${brand ?? 'Card'} ${first4}••••`;
  return brand;
}

interface Namer {
  operation: Operation;
  /** The field that holds the record's own id. */
  idField: 'id' | 'uuid';
  name(record: Item): string | undefined;
}

const NAMERS: Record<RecordKind, Namer> = {
  buyer: { operation: 'buyers.get', idField: 'id', name: (b) => buyerName(b) || text(b.email) },
  card: { operation: 'cards.get', idField: 'id', name: cardName },
  seller: { operation: 'sellers.get', idField: 'id', name: (s) => sellerName(s) || text(s.statement_descriptor) || text(s.business_email) || text(s.email) },
  plan: { operation: 'plans.get', idField: 'uuid', name: (p) => text(p.name) },
  subscription: { operation: 'subscriptions.get', idField: 'uuid', name: (s) => text(s.description) },
};

/** What one command's name reads have come to. */
interface Reads {
  /** By nameKey: at most NAMES_PER_COMMAND, each read once however often it is named. */
  names: Map<string, Promise<string | undefined>>;
  /** Why no more are read (the service was slow or failing), once it is so. */
  stopped?: string;
  /** How many records were left at their ids for the bound. */
  beyond: Set<string>;
  inFlight: number;
  waiting: Array<() => void>;
}

/** Each command's API client keeps its reads: one request per record, however often it is named. */
const readsOf = new WeakMap<ApiClient, Reads>();

function reads(api: ApiClient): Reads {
  let found = readsOf.get(api);
  if (!found) readsOf.set(api, (found = { names: new Map(), beyond: new Set(), inFlight: 0, waiting: [] }));
  return found;
}

/** Runs `work` when fewer than NAMES_AT_ONCE of the command's reads are out. */
async function inTurn<T>(state: Reads, work: () => Promise<T>): Promise<T> {
  while (state.inFlight >= NAMES_AT_ONCE) await new Promise<void>((go) => state.waiting.push(go));
  state.inFlight += 1;
  try {
    return await work();
  } finally {
    state.inFlight -= 1;
    state.waiting.shift()?.();
  }
}

/**
 * Whether a failed read says the service is slow or failing, so that no more names are asked of
 * it: no answer (a timeout, a connection refused or reset: a NetworkError carries the transport's
 * error as its cause), or an answer to wait (429, 5xx). An answer about the record alone (404, a
 * record of another shape) leaves that record at its id and the others are read.
 */
const ofTheService = (err: unknown) =>
  err instanceof ApiError ? err.details.httpStatus === 429 || err.details.httpStatus >= 500 : !(err instanceof NetworkError) || err.cause !== undefined;

async function lookUp(api: ApiClient, state: Reads, { kind, id }: RecordRef): Promise<string | undefined> {
  const namer = NAMERS[kind];
  return inTurn(state, async () => {
    if (state.stopped !== undefined) return undefined;
    try {
      const record = await api.call<Item>(namer.operation, { params: { id }, optionalWithinMs: NAME_WITHIN_MS });
      // Another record (or none) is not this one's name.
      if (!record || typeof record !== 'object' || record[namer.idField] !== id) return undefined;
      const name = namer.name(record);
      return name === undefined ? undefined : sanitize(name) || undefined;
    } catch (err) {
      if (ofTheService(err)) state.stopped ??= err instanceof CliError ? sanitize(err.message) : 'a read failed';
      return undefined;
    }
  });
}

/** The name of the record `id` is of, or undefined (not readable, nothing to call it by, or past the bound). Never throws. */
export function recordName(api: ApiClient, kind: RecordKind, id: string): Promise<string | undefined> {
  const state = reads(api);
  const key = nameKey({ kind, id });
  const known = state.names.get(key);
  if (known) return known;
  if (state.stopped !== undefined) return Promise.resolve(undefined);
  if (state.names.size >= NAMES_PER_COMMAND) {
    // Counted only as far as the note needs (a few more than the bound), so memory stays flat.
    if (state.beyond.size <= NAMES_PER_COMMAND) state.beyond.add(key);
    return Promise.resolve(undefined);
  }
  const name = lookUp(api, state, { kind, id });
  state.names.set(key, name);
  return name;
}

/**
 * Why some records this command named are shown by their ids instead (the bound on reads, or a
 * service that was slow or failing), for a line under what was printed; undefined when none was
 * left for either reason (a record that is not there simply keeps its id).
 */
export function namesLeftOut(api: ApiClient): string | undefined {
  const state = readsOf.get(api);
  if (state?.stopped !== undefined) return `a name could not be read (${state.stopped}): payctl read no more and shows the rest by id`;
  if (state && state.beyond.size > 0) {
    const more = state.beyond.size > NAMES_PER_COMMAND ? `more than ${counted(NAMES_PER_COMMAND, 'more record')}` : counted(state.beyond.size, 'more record');
    return `payctl reads at most ${NAMES_PER_COMMAND} names a command: ${more} shown by id`;
  }
  return undefined;
}

/** "Maria Silva", or "buyer <id>" when the record has no name to read: for a question or a status line. */
export async function nameOrId(api: ApiClient, kind: RecordKind, id: string): Promise<string> {
  return (await recordName(api, kind, id)) ?? `${kind} ${id}`;
}

/** The names of several records, read together; the key of each is `${kind} ${id}`. Those without one are left out. */
export async function recordNames(api: ApiClient, refs: readonly RecordRef[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  await Promise.all(
    refs.map(async (ref) => {
      const name = await recordName(api, ref.kind, ref.id);
      if (name !== undefined) names.set(nameKey(ref), name);
    }),
  );
  return names;
}

export function nameKey(ref: RecordRef): string {
  return `${ref.kind} ${ref.id}`;
}
