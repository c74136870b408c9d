import { ALL_EVENTS, EVENT_TYPES, unknownEventTypes } from '../../provider/event-types.js';
import { isLoopbackHost } from '../../platform/loopback.js';
import { ValidationError } from '../../errors.js';
import { zoneLabel } from '../../time/zone.js';
import { didYouMean } from '../../validate/closest.js';
import { CREATED_COLUMN, ID_COLUMN, STATUS_COLUMN } from '../../output/columns.js';
import type { Column } from '../../output/render-options.js';

export const WEBHOOK_COLUMNS: Column[] = [
  ID_COLUMN,
  { key: 'url', header: 'URL' },
  { key: 'events', header: 'EVENTS' },
  STATUS_COLUMN,
  CREATED_COLUMN,
];

export const EVENT_COLUMNS: Column[] = [
  { key: 'created_at', header: 'TIME', kind: 'date' },
  // What happened: categorical like a status, never cut or dropped.
  { key: 'type', header: 'TYPE', kind: 'status' },
  ID_COLUMN,
  { key: 'payload.object.id', header: 'OBJECT', kind: 'id', optional: true },
];

/** The events table shows the object's id, whichever id field its resource uses. */
export function eventRow(item: Record<string, unknown>): Record<string, unknown> {
  const object = objectOf(item);
  return { ...item, payload: { object: { id: object.id ?? object.uuid } } };
}

function objectOf(event: Record<string, unknown>): Record<string, unknown> {
  const object = (event.payload as { object?: unknown } | null | undefined)?.object;
  return object !== null && typeof object === 'object' && !Array.isArray(object) ? (object as Record<string, unknown>) : {};
}

/** The longest status an object shows (a sale's pre_authorized): the room a stream of them keeps. */
const STATUS_WIDTH = 14;
/** Money as wide as R$ 99.999,99. */
const AMOUNT_WIDTH = 12;

/**
 * `webhooks listen` on a terminal: a row an event as it arrives, each when (its zone in the
 * header), what happened to which object, its amount and status, in columns as wide as any event
 * of `types` can need (not as the first one did), so that every row lines up under the header.
 * The event's own id shows when there is room; a terminal too narrow for the rest (under about
 * 110 columns) prints each event as a block of its own.
 */
export function listenColumns(types: readonly string[], forwarding: boolean): Column[] {
  const shown = types.includes(ALL_EVENTS) ? EVENT_TYPES : types;
  return [
    // A stream has no end to name the zone under: its header does.
    { key: 'created_at', header: `TIME (${zoneLabel()})`, kind: 'date' },
    { key: 'type', header: 'TYPE', kind: 'status', width: Math.max(...shown.map((type) => type.length)) },
    { key: 'object', header: 'OBJECT', kind: 'id', width: 32 },
    { key: 'amount', header: 'AMOUNT', kind: 'money', width: AMOUNT_WIDTH },
    { key: 'status', header: 'STATUS', kind: 'status', width: STATUS_WIDTH },
    { key: 'id', header: 'EVENT', kind: 'id', optional: true, width: 32 },
    ...(forwarding ? [{ key: 'forwarded', header: 'FORWARDED' }] : []),
  ];
}

/** An event as `listenColumns` shows it: its object's id, amount (in its currency) and status. */
export function listenRow(event: Record<string, unknown>, forwarded: string | undefined): Record<string, unknown> {
  const object = objectOf(event);
  return { ...event, object: object.id ?? object.uuid, amount: object.amount, currency: object.currency, status: object.status, forwarded };
}

/** A webhook table shows its events as one comma-separated cell. */
export function webhookRow(item: Record<string, unknown>): Record<string, unknown> {
  return Array.isArray(item.events) ? { ...item, events: item.events.join(',') } : item;
}

/** Absolute https; plain http only to this machine. */
export function checkWebhookUrl(value: string, flag = '--url'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ValidationError(flag, `"${value}" is not an absolute URL; give https://…`);
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return url.toString();
  throw new ValidationError(flag, `${value} must use https:// (plain http:// only to localhost or 127.0.0.1)`);
}

/**
 * Event types as given (repeatable, or comma-separated), checked; `*` means all. A type not known
 * is named with the one it is a typo of (`transaction.succeded`: did you mean transaction.succeeded?);
 * failing that, with the types of its resource, or every type when its resource is not one either.
 */
export function checkEventTypes(values: string[], flag = '--event'): string[] {
  const types = [...new Set(values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean))];
  const unknown = unknownEventTypes(types);
  if (unknown.length === 0) return types;
  const guesses = unknown.map(guessEventType);
  const named = `unknown event type${unknown.length > 1 ? 's' : ''} ${unknown.map((type, i) => `${type}${guesses[i]}`).join(', ')}`;
  if (guesses.every(Boolean)) throw new ValidationError(flag, named);
  const resources = new Set(unknown.map((type) => type.split('.')[0]));
  const ofResource = resources.size === 1 ? EVENT_TYPES.filter((type) => resources.has(type.split('.')[0])) : [];
  const known = ofResource.length > 0 ? `the ${[...resources].join('')} events are ${ofResource.join(', ')}` : `use '${ALL_EVENTS}' or one of ${EVENT_TYPES.join(', ')}`;
  throw new ValidationError(flag, `${named}; ${known}`);
}

/**
 * " (did you mean transaction.succeeded?)" for a typo of an event type. Of a known resource, only
 * what follows it is compared (`transaction.exploded` is no typo of `transaction.updated`, however
 * much of it they share); else the whole of it (`transacton.succeeded`).
 */
function guessEventType(type: string): string {
  const dot = type.indexOf('.');
  const resource = type.slice(0, dot + 1);
  const actions = dot > 0 ? EVENT_TYPES.filter((known) => known.startsWith(resource)).map((known) => known.slice(resource.length)) : [];
  if (actions.length === 0) return didYouMean(type, EVENT_TYPES);
  return didYouMean(type.slice(resource.length), actions).replace('mean ', `mean ${resource}`);
}
