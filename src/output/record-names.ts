// The names a person knows records by, where an object or a question refers to them by id: a buyer
// by name (or e-mail), a card as "MasterCard ••••4444", a seller by its name, a plan by its name, a
// subscription by its description. A name read from the service costs a request: each record is
// read once per command (the reads are kept with the command's API client), only where a person
// reads (a view on a terminal, a question; see Printer.show), and a record that cannot be read, or
// reads as another one or as nothing nameable, is left to be shown by its id: never an error.
import type { ApiClient } from '../api/client.js';
import type { Operation } from '../provider/endpoints.js';
import { sanitize } from './table.js';

type Item = Record<string, unknown>;

/** What an id can refer to that has a name. */
export type RecordKind = 'buyer' | 'card' | 'seller' | 'plan' | 'subscription';

export interface RecordRef {
  kind: RecordKind;
  id: string;
}

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

/** Each command's API client keeps the names it has read: one request per record, however often it is named. */
const read = new WeakMap<ApiClient, Map<string, Promise<string | undefined>>>();

async function lookUp(api: ApiClient, { kind, id }: RecordRef): Promise<string | undefined> {
  const namer = NAMERS[kind];
  try {
    const record = await api.call<Item>(namer.operation, { params: { id } });
    // Another record (or none) is not this one's name.
    if (!record || typeof record !== 'object' || record[namer.idField] !== id) return undefined;
    const name = namer.name(record);
    return name === undefined ? undefined : sanitize(name) || undefined;
  } catch {
    return undefined;
  }
}

/** The name of the record `id` is of, or undefined (not readable, or nothing to call it by). Never throws. */
export function recordName(api: ApiClient, kind: RecordKind, id: string): Promise<string | undefined> {
  let names = read.get(api);
  if (!names) read.set(api, (names = new Map()));
  const key = `${kind} ${id}`;
  let name = names.get(key);
  if (!name) names.set(key, (name = lookUp(api, { kind, id })));
  return name;
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
