import type { SqlValue } from '../../ledger/sqlite.js';
import { centsToDecimal } from '../money.js';

// A record kept as columns instead of its rendered JSON: each field of the document, in the
// document's own key order, names its column and how its value is kept there (an instant as epoch
// milliseconds, money as integer cents) and brought back. A value every record has alike is kept
// in the code, not the row. A record that does not have this shape (another key order, a value
// its field cannot keep and give back the same) is kept whole as JSON instead, so what is read
// back is always exactly what was written.

export type Doc = Record<string, unknown>;
export type Row = Record<string, SqlValue>;

/** Said by a field that cannot keep a value so that it comes back the same. */
export const UNKEPT: unique symbol = Symbol('unkept');

export interface Field {
  key: string;
  /** Its column; none for a value kept in the code. */
  column?: string;
  type?: 'TEXT' | 'INTEGER';
  put(value: unknown, doc: Doc): SqlValue | typeof UNKEPT;
  get(row: Row, doc: Doc): unknown;
}

/** A field kept in a column of its own, brought back from that column's value alone. */
function kept(key: string, column: string, type: 'TEXT' | 'INTEGER', put: Field['put'], get: (stored: SqlValue) => unknown): Field {
  return { key, column, type, put, get: (row) => get(row[column] ?? null) };
}

/** A string (or null), as it is. */
export function text(key: string, column = key): Field {
  return kept(key, column, 'TEXT', (value) => (value === null || typeof value === 'string' ? value : UNKEPT), (stored) => stored);
}

/** An ISO 8601 instant of whole milliseconds (or null), as epoch milliseconds. */
export function instant(key: string, column: string): Field {
  const put = (value: unknown): SqlValue | typeof UNKEPT => {
    if (value === null) return null;
    if (typeof value !== 'string') return UNKEPT;
    const ms = Date.parse(value);
    return Number.isFinite(ms) && new Date(ms).toISOString() === value ? ms : UNKEPT;
  };
  return kept(key, column, 'INTEGER', put, (stored) => (stored === null ? null : new Date(Number(stored)).toISOString()));
}

/** Money as the provider writes it ("12.34", "-0.50"), as integer cents. */
export function money(key: string, column: string): Field {
  const put = (value: unknown): SqlValue | typeof UNKEPT => {
    if (typeof value !== 'string' || !/^-?\d+\.\d\d$/.test(value)) return UNKEPT;
    const cents = Math.round(Number(value) * 100);
    return Number.isSafeInteger(cents) && centsToDecimal(cents) === value ? cents : UNKEPT;
  };
  return kept(key, column, 'INTEGER', put, (stored) => centsToDecimal(Number(stored)));
}

/** A whole number written as text ("3"), as the number. */
export function numeric(key: string, column = key): Field {
  return kept(key, column, 'INTEGER', (value) => (typeof value === 'string' && /^(0|[1-9]\d{0,14})$/.test(value) ? Number(value) : UNKEPT), (stored) => String(stored));
}

/** "true" or "false", as 1 or 0. */
export function flag(key: string, column = key): Field {
  return kept(key, column, 'INTEGER', (value) => (value === 'true' ? 1 : value === 'false' ? 0 : UNKEPT), (stored) => (stored === 1 ? 'true' : 'false'));
}

/** true or false, as 1 or 0. */
export function bool(key: string, column = key): Field {
  return kept(key, column, 'INTEGER', (value) => (typeof value === 'boolean' ? Number(value) : UNKEPT), (stored) => stored === 1);
}

/** Any JSON value, as its text. */
export function json(key: string, column = key): Field {
  return kept(key, column, 'TEXT', (value) => (value === undefined ? UNKEPT : JSON.stringify(value)), (stored) => JSON.parse(String(stored)));
}

/** The same value in every record: nothing is kept (an object is given back as a copy of its own). */
export function fixed(key: string, value: SqlValue | boolean | Doc): Field {
  const shown = JSON.stringify(value);
  const plain = value === null || typeof value !== 'object';
  return {
    key,
    put: (given) => (plain ? given === value : JSON.stringify(given) === shown) ? null : UNKEPT,
    get: () => (plain ? value : JSON.parse(shown)),
  };
}

/** The same value as an earlier field of the record (an update time never changed). */
export function sameAs(key: string, earlier: string): Field {
  return {
    key,
    put: (value, doc) => (value === doc[earlier] ? null : UNKEPT),
    get: (_row, doc) => doc[earlier],
  };
}

/** The columns the fields keep `doc` in, in field order; undefined when it does not have their shape. */
export function pack(fields: readonly Field[], doc: Doc): Map<string, SqlValue> | undefined {
  const keys = Object.keys(doc);
  if (keys.length !== fields.length) return undefined;
  const columns = new Map<string, SqlValue>();
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] as Field;
    if (keys[i] !== field.key) return undefined;
    const value = field.put(doc[field.key], doc);
    if (value === UNKEPT) return undefined;
    if (field.column) columns.set(field.column, value);
  }
  return columns;
}

/** The document the fields kept in `row`. */
export function unpack(fields: readonly Field[], row: Row): Doc {
  const doc: Doc = {};
  for (const field of fields) doc[field.key] = field.get(row, doc);
  return doc;
}
