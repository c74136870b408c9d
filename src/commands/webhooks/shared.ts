import { ALL_EVENTS, EVENT_TYPES, unknownEventTypes } from '../../provider/event-types.js';
import { isLoopbackHost } from '../../platform/loopback.js';
import { ValidationError } from '../../errors.js';
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

/** Event types as given (repeatable, or comma-separated), checked; `*` means all. */
export function checkEventTypes(values: string[], flag = '--event'): string[] {
  const types = [...new Set(values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean))];
  const unknown = unknownEventTypes(types);
  if (unknown.length > 0) {
    throw new ValidationError(flag, `unknown event type ${unknown.join(', ')}; use '${ALL_EVENTS}' or one of ${EVENT_TYPES.join(', ')}`);
  }
  return types;
}
