import type { Change } from './db/session.js';
import { found } from './errors.js';
import { newId } from './ids.js';
import { findBy, page, recordVersion } from './db/queries.js';
import { pageEnvelope, parseListQuery, type ListEnvelope } from './list.js';
import { isoTimestamp } from './time.js';
import type { Buyer, Invoice, Plan, SandboxEvent, SandboxState, StoredEvent, StoredSubscription, StoredTransaction } from './types.js';

// Every state change of a transaction, buyer, plan, subscription or invoice is an event. They are
// not raised by the handlers: after each change the store hands over what changed (the records
// written, as they were before and are after), and the event types follow from the difference:
// a new record is `<resource>.created`, a new status is `<resource>.<status>`, any other change
// `<resource>.updated`, a record gone `<resource>.deleted`. So no state change can forget its event.

interface Family<T> {
  resource: string;
  /** What the API serves for the stored record (the event's payload object). */
  served(stored: T, state: SandboxState): unknown;
  status?(stored: T): string;
  /** The status a record is created in, which needs no event beyond `created`. */
  initial?: readonly string[];
  /** Event names that are not `<resource>.<status>`. */
  rename?(stored: T, before: T | undefined): string | undefined;
}

const FAMILIES: Record<string, Family<never>> = {
  transactions: {
    resource: 'transaction',
    served: (s: StoredTransaction) => s.txn,
    status: (s: StoredTransaction) => s.txn.status,
    initial: ['new', 'pending'],
  } satisfies Family<StoredTransaction>,
  buyers: { resource: 'buyer', served: (b: Buyer) => b } satisfies Family<Buyer>,
  plans: { resource: 'plan', served: (p: Plan) => p, status: (p: Plan) => p.status, initial: ['active'] } satisfies Family<Plan>,
  subscriptions: {
    resource: 'subscription',
    served: (s: StoredSubscription) => s.sub,
    status: (s: StoredSubscription) => s.sub.status,
    initial: ['active'],
    rename: (s: StoredSubscription, before) => (s.sub.status === 'active' && before?.sub.status === 'suspended' ? 'reactivated' : undefined),
  } satisfies Family<StoredSubscription>,
  invoices: {
    resource: 'invoice',
    served: (i: Invoice) => i,
    status: (i: Invoice) => i.status,
    initial: ['pending'],
    rename: (i: Invoice) => (i.status === 'over-due' ? 'overdue' : i.status === 'canceled' && i.voided_at !== null ? 'refunded' : undefined),
  } satisfies Family<Invoice>,
} as Record<string, Family<never>>;

/** The JSON of what a record serves, to tell a real change from bookkeeping (a cursor, an index). */
function servedJson(family: Family<never>, stored: unknown, state: SandboxState): string {
  return JSON.stringify(family.served(stored as never, state));
}

function typesFor(family: Family<never>, before: unknown, after: unknown, state: SandboxState): string[] {
  const status = (s: unknown) => family.status?.(s as never);
  const named = (s: unknown, b: unknown) => family.rename?.(s as never, b as never) ?? status(s);
  if (after === undefined) return before === undefined ? [] : [`${family.resource}.deleted`];
  if (before === undefined) {
    const now = status(after);
    return [`${family.resource}.created`, ...(now !== undefined && !family.initial?.includes(now) ? [`${family.resource}.${named(after, undefined)}`] : [])];
  }
  if (status(after) !== status(before)) return [`${family.resource}.${named(after, before)}`];
  return servedJson(family, before, state) === servedJson(family, after, state) ? [] : [`${family.resource}.updated`];
}

/** When a change happened: the record's own updated_at when it has one (billing runs at its due instant), else now. */
function happenedAt(object: unknown, now: Date): string {
  const stamp = (object as { updated_at?: unknown } | null)?.updated_at;
  return typeof stamp === 'string' ? stamp : isoTimestamp(now);
}

/**
 * Appends the events of `changes` to the state's events, in the order they happened, and returns
 * them as changes too. Called by the store after each mutation, before what changed is written.
 */
export function recordEvents(state: SandboxState, changes: Change[], now: Date): Change[] {
  const made: StoredEvent[] = [];
  for (const change of changes) {
    const { top, key, after } = change;
    const family = FAMILIES[top];
    if (!family || key === undefined) continue;
    // Asked only here: a stored record's JSON before is made from its row when asked.
    const beforeJson = change.before;
    const before = beforeJson === undefined ? undefined : JSON.parse(beforeJson);
    const at = after === undefined ? isoTimestamp(now) : happenedAt(family.served(after as never, state), now);
    // The payload is the record as this change leaves it (as it was, for a removal): the store
    // notes which version of the record that is when it writes the event.
    for (const type of typesFor(family, before, after, state)) made.push({ id: newId(state), type, resource: 'event', created_at: at, source: [top, key] });
  }
  // Stable: events of one moment keep the order their records changed in.
  made.sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
  return made.map((event) => ({ top: 'events', key: String(state.events.append(event)), before: undefined, after: event }));
}

/** An event as served: its payload is the version of the record it refers to. */
export function servedEvent(state: SandboxState, stored: StoredEvent): SandboxEvent {
  let object: unknown = null;
  if (stored.source && stored.version !== undefined) {
    const [top, key] = stored.source;
    const family = FAMILIES[top];
    const record = recordVersion(state, top, key, stored.version);
    if (family && record) object = family.served(record as never, state);
  }
  return { id: stored.id, type: stored.type, resource: 'event', payload: { object }, created_at: stored.created_at };
}

export function findEvent(state: SandboxState, id: string): SandboxEvent {
  return servedEvent(state, found(findBy<StoredEvent>(state, 'events', 'id', id), 'event', id));
}

export function listEvents(state: SandboxState, params: URLSearchParams, uri: string): ListEnvelope<SandboxEvent> {
  const query = parseListQuery(params, ['type']);
  const types = query.filters.get('type');
  // Events are stored in the order they happened: the stored order is the time order.
  const found = page<StoredEvent>(state, 'events', { time: 'created_ms', storedOrder: true, filters: { type: types && [...types] } }, query);
  return pageEnvelope(uri, found.items.map((stored) => servedEvent(state, stored)), found.total, query);
}
