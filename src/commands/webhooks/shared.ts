import { ALL_EVENTS, EVENT_TYPES, unknownEventTypes } from '../../provider/event-types.js';
import { isLoopbackHost } from '../../platform/loopback.js';
import { ValidationError } from '../../errors.js';
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
  const object = (item.payload as { object?: Record<string, unknown> } | undefined)?.object;
  return { ...item, payload: { object: { id: object?.id ?? object?.uuid } } };
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
