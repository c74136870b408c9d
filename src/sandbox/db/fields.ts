import type { SqlValue } from '../../platform/sqlite.js';
import { centsToDecimal } from '../money.js';
import { isoOfMs, msOfIso } from '../time.js';
import type { IdCodes } from './id-codes.js';

// A record kept as columns instead of its rendered JSON: each field of the document, in the
// document's own key order, names its column and how its value is kept there (an instant as epoch
// milliseconds, money as integer cents) and brought back. A value every record has alike is kept
// in the code, not the row. A record that does not have this shape (another key order, a value
// its field cannot keep and give back the same) is kept whole as JSON instead, so what is read
// back is always exactly what was written. Ids are kept as the database's own codes say
// (id-codes.ts): every packing and reading is given them, as each database has its own.

export type Doc = Record<string, unknown>;
/**
 * A record's columns as read back: SQL values, but a JSON column's value already parsed (a row's
 * JSON columns are read with one JSON.parse, schema.ts).
 */
export type Row = Record<string, unknown>;
/** ANY: a number or a text (an id as id-codes.ts keeps it, a word), in a column of no type: SQLite turns neither into the other. */
export type ColumnType = 'TEXT' | 'INTEGER' | 'JSON' | 'ANY';

/** Said by a field that cannot keep a value so that it comes back the same. */
const UNKEPT: unique symbol = Symbol('unkept');

export interface Field {
  key: string;
  /** Its column; none for a value kept in the code. */
  column?: string;
  /** JSON: kept as JSON text (written as the value itself inside the row's one JSON array); read back parsed. */
  type?: ColumnType;
  /** `parent`: the record a list item belongs to (a sale, for a line of its history); `codes`: its database's ids. */
  put(value: unknown, doc: Doc, parent: Doc | undefined, codes: IdCodes): SqlValue | typeof UNKEPT;
  get(row: Row, doc: Doc, parent: Doc | undefined, codes: IdCodes): unknown;
  /** The fields of a sub-object, kept in columns of their own beside the record's. */
  inner?: readonly Field[];
  /** The shapes of the objects kept in its one column as their values only (tuples, oneOf): part of the database's layout. */
  shapes?: ReadonlyArray<readonly Field[]>;
  /** Brought back after every other field of the record, from them (its key keeps its place). */
  late?: boolean;
  /** Kept in its own column and brought back from that column's value (and the record, or the one it belongs to, where it says). */
  fromColumn?: (stored: unknown, codes: IdCodes, doc: Doc, parent: Doc | undefined) => unknown;
  /** The words it keeps as their places (word): part of the database's layout. */
  words?: readonly string[];
  /** The same value in every record (fixed): nothing to read. An object is given back as a copy of its own. */
  constant?: { value: SqlValue | boolean | Doc; plain: boolean };
}

/** `make` of a key (a list of fields, a table), worked out once for each key: every write and every read asks. */
export function madeOnce<K extends object, T>(make: (key: K) => T): (key: K) => T {
  const made = new WeakMap<K, T>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) made.set(key, (value = make(key)));
    return value;
  };
}

/** A field kept in a column of its own, brought back from that column's value alone. */
function kept(key: string, column: string, type: ColumnType, put: Field['put'], get: (stored: unknown, codes: IdCodes) => unknown): Field {
  return { key, column, type, put, get: (row, _doc, _parent, codes) => get(row[column] ?? null, codes), fromColumn: get };
}

/** A string (or null), as it is. */
export function text(key: string, column = key): Field {
  return kept(key, column, 'TEXT', (value) => (value === null || typeof value === 'string' ? value : UNKEPT), (stored) => stored);
}

/** An id (or null), as the database keeps ids (id-codes.ts): mostly a small number. */
export function id(key: string, column = key): Field {
  const put: Field['put'] = (value, _doc, _parent, codes) => (value === null ? null : typeof value === 'string' ? codes.code(value) : UNKEPT);
  return kept(key, column, 'ANY', put, (stored, codes) => codes.id(stored));
}

/** Ids (or null) in a list, as the database keeps ids: a payout's transactions and receivables. */
export function ids(key: string, column = key): Field {
  const put: Field['put'] = (value, _doc, _parent, codes) => {
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return UNKEPT;
    return JSON.stringify(value.map((item: string) => codes.code(item)));
  };
  const get = (stored: unknown, codes: IdCodes) => (stored as unknown[]).map((item) => codes.id(item));
  return kept(key, column, 'JSON', put, get);
}

/**
 * A text (or null) from a fixed list of the sandbox's own words (statuses, messages, fee names),
 * kept as its place in the list; any other text as it is. A word's place is what is stored: the
 * list is part of the database's layout, so another list makes another database format.
 */
export function word(vocabulary: readonly string[]): (key: string, column?: string) => Field {
  const places = new Map(vocabulary.map((text, i) => [text, i]));
  return (key, column = key) => ({
    ...kept(
      key,
      column,
      'ANY',
      (value) => (value === null ? null : typeof value === 'string' ? (places.get(value) ?? value) : UNKEPT),
      (stored) => (typeof stored === 'number' ? vocabulary[stored] : stored),
    ),
    words: vocabulary,
  });
}

/**
 * A text that names other fields' values (a ledger line's "Sale <transaction id> (pix), net of
 * fees"), of the record or of the one it belongs to, or texts the sandbox writes in every such
 * value: each named text is kept once, in its own field or in the code, and here as a mark of one
 * character. A text with such a character of its own is kept as it is.
 */
export function mentioning(key: string, column: string, named: ReadonlyArray<(doc: Doc, parent: Doc | undefined) => unknown>): Field {
  const marks = named.map((_, i) => String.fromCharCode(1 + i));
  const put: Field['put'] = (value, doc, parent) => {
    if (value === null || typeof value !== 'string') return value === null ? null : UNKEPT;
    if (marks.some((mark) => value.includes(mark))) return UNKEPT;
    let kept = value;
    named.forEach((of, i) => {
      const text = of(doc, parent);
      if (typeof text === 'string' && text.length > 0) kept = kept.split(text).join(marks[i]);
    });
    return kept;
  };
  const fromColumn: Field['fromColumn'] = (stored, _codes, doc, parent) => {
    let text = stored as string | null;
    if (text === null) return null;
    named.forEach((of, i) => {
      if (text?.includes(marks[i] as string)) text = text.split(marks[i] as string).join(String(of(doc, parent)));
    });
    return text;
  };
  return { key, column, type: 'TEXT', late: true, put, get: (row, doc, parent, codes) => fromColumn(row[column] ?? null, codes, doc, parent), fromColumn };
}

// The last instant parsed (isoOfMs keeps the last one written): a record's times are mostly one
// and the same (created, updated, its history's), and a generated volume writes them in a row.
let parsedText = '';
let parsedMs = NaN;

/** The epoch milliseconds of an instant written as toISOString writes it, else NaN. */
function msOf(text: string): number {
  if (text !== parsedText) {
    let ms = msOfIso(text);
    if (Number.isNaN(ms)) {
      // Not of the shape the sandbox writes from 1970 on: Date.parse, and kept only if written back the same.
      ms = Date.parse(text);
      if (!Number.isFinite(ms) || isoOfMs(ms) !== text) ms = NaN;
    }
    parsedMs = ms;
    parsedText = text;
  }
  return parsedMs;
}

/** An ISO 8601 instant of whole milliseconds (or null), as epoch milliseconds. */
export function instant(key: string, column: string): Field {
  const put = (value: unknown): SqlValue | typeof UNKEPT => {
    if (value === null) return null;
    if (typeof value !== 'string') return UNKEPT;
    const ms = msOf(value);
    return Number.isNaN(ms) ? UNKEPT : ms;
  };
  return kept(key, column, 'INTEGER', put, (stored) => (stored === null ? null : isoOfMs(Number(stored))));
}

/** Epoch milliseconds of an instant as a record keeps it (a number, or text as toISOString writes it), else NaN. */
function msOfInstant(value: unknown): number {
  return typeof value === 'number' ? value : typeof value === 'string' ? msOf(value) : Number.NaN;
}

/**
 * An ISO 8601 instant (or null), as milliseconds after the instant `base` reads from the record or
 * from the record it belongs to (a sale, for its history and payment method): those are mostly
 * stamped at the sale's own instant, so this is mostly 0 (no byte in a column, one in JSON)
 * instead of 13 digits. `base` must be read back before this field is (an earlier key, or a later
 * field's parent), else the record is kept whole.
 */
export function since(key: string, column: string, base: (doc: Doc, parent: Doc | undefined) => unknown): Field {
  const put: Field['put'] = (value, doc, parent) => {
    if (value === null) return null;
    if (typeof value !== 'string') return UNKEPT;
    const ms = msOf(value) - msOfInstant(base(doc, parent));
    return Number.isNaN(ms) ? UNKEPT : ms;
  };
  const fromColumn: Field['fromColumn'] = (stored, _codes, doc, parent) => (stored === null ? null : isoOfMs(msOfInstant(base(doc, parent)) + Number(stored)));
  return { key, column, type: 'INTEGER', put, get: (row, doc, parent, codes) => fromColumn(row[column] ?? null, codes, doc, parent), fromColumn };
}

/** `field`, read back after every other field of its record (as `since` needs, when it reads its base from the record's later keys). */
export function readLast(field: Field): Field {
  return { ...field, late: true };
}

const MONEY = /^-?(0|[1-9]\d*)\.\d\d$/;

/** The cents of money as the provider writes it, exactly as centsToDecimal writes it (no leading zero, two decimals, no "-0.00"); else NaN. */
function centsOf(value: unknown): number {
  if (typeof value !== 'string' || !MONEY.test(value) || value === '-0.00') return Number.NaN;
  const cents = Number(value.replace('.', ''));
  return Number.isSafeInteger(cents) ? cents : Number.NaN;
}

/** Money as the provider writes it ("12.34", "-0.50"), as integer cents. */
export function money(key: string, column: string): Field {
  const put = (value: unknown): SqlValue | typeof UNKEPT => {
    const cents = centsOf(value);
    return Number.isNaN(cents) ? UNKEPT : cents;
  };
  return kept(key, column, 'INTEGER', put, (stored) => centsToDecimal(Number(stored)));
}

/**
 * Money as cents more than the money `base` reads from the record or the one it belongs to (a
 * line of a sale's history, against the sale's amount): mostly the same, so mostly 0.
 */
export function moneyFrom(key: string, column: string, base: (doc: Doc, parent: Doc | undefined) => unknown): Field {
  const put: Field['put'] = (value, doc, parent) => {
    const cents = centsOf(value) - centsOf(base(doc, parent));
    return Number.isNaN(cents) ? UNKEPT : cents;
  };
  const fromColumn: Field['fromColumn'] = (stored, _codes, doc, parent) => centsToDecimal(Number(stored) + centsOf(base(doc, parent)));
  return { key, column, type: 'INTEGER', put, get: (row, doc, parent, codes) => fromColumn(row[column] ?? null, codes, doc, parent), fromColumn };
}

/** A whole number written as text ("3"), as the number. */
export function numeric(key: string, column = key): Field {
  return kept(key, column, 'INTEGER', (value) => (typeof value === 'string' && /^(0|[1-9]\d{0,14})$/.test(value) ? Number(value) : UNKEPT), (stored) => String(stored));
}

/** "true" or "false", as 1 or 0. */
export function flag(key: string, column = key): Field {
  return kept(key, column, 'INTEGER', (value) => (value === 'true' ? 1 : value === 'false' ? 0 : UNKEPT), (stored) => (stored === 1 ? 'true' : 'false'));
}

/** A whole number, as it is. */
export function integer(key: string, column = key): Field {
  return kept(key, column, 'INTEGER', (value) => (Number.isSafeInteger(value) ? (value as number) : UNKEPT), (stored) => stored);
}

/** true or false, as 1 or 0. */
export function bool(key: string, column = key): Field {
  return kept(key, column, 'INTEGER', (value) => (typeof value === 'boolean' ? Number(value) : UNKEPT), (stored) => stored === 1);
}

/** Any JSON value, as its text. */
export function json(key: string, column = key): Field {
  return kept(key, column, 'JSON', (value) => (value === undefined ? UNKEPT : JSON.stringify(value)), (stored) => stored);
}

/** A sub-object of the fields' shape, each of its fields in a column of its own; the record is its fields' parent. */
export function nested(key: string, inner: readonly Field[]): Field {
  return { key, inner, put: () => UNKEPT, get: (row, doc, _parent, codes) => unpack(inner, row, codes, doc) };
}

/** Every column the fields keep, sub-objects' included, in field order. */
export const columnsOf = madeOnce((fields: readonly Field[]) =>
  fields.flatMap((field): Array<[string, ColumnType]> => (field.inner ? columnsOf(field.inner) : field.column ? [[field.column, field.type ?? 'TEXT']] : [])),
);

/**
 * A list of objects of the fields' shape (a transaction's history), as the JSON text of one
 * array of kept values per object: the keys and the constants are left out.
 */
export function tuples(key: string, column: string, fields: readonly Field[]): Field {
  const put: Field['put'] = (value, doc, _parent, codes) => {
    if (!Array.isArray(value)) return UNKEPT;
    const rows: string[] = [];
    for (const item of value) {
      const packed = isDoc(item) ? packValues(fields, item, codes, doc) : undefined;
      if (!packed) return UNKEPT;
      rows.push(valuesText(fields, packed));
    }
    return `[${rows.join(',')}]`;
  };
  const get: Field['get'] = (row, doc, _parent, codes) => (row[column] as unknown[][]).map((values) => unpackValues(fields, values, codes, doc));
  return { key, column, type: 'JSON', put, get, shapes: [fields] };
}

/** The same value as a field of the record the item belongs to (a history line's transaction id). */
export function fromParent(key: string, parentKey: string): Field {
  return {
    key,
    put: (value, _doc, parent) => (parent !== undefined && value === parent[parentKey] ? null : UNKEPT),
    get: (_row, _doc, parent) => parent?.[parentKey],
  };
}

/**
 * An object of one of a few shapes (a card's or a PIX's payment method), as the JSON of the
 * shape's number and the values its fields keep; any other object (or null) as its own JSON. The
 * record it is a field of is its fields' parent.
 */
export function oneOf(key: string, column: string, shapes: ReadonlyArray<readonly Field[]>): Field {
  const put: Field['put'] = (value, doc, _parent, codes) => {
    if (value !== null && !isDoc(value)) return UNKEPT;
    for (let i = 0; i < shapes.length; i += 1) {
      const fields = shapes[i] as readonly Field[];
      const packed = value && packValues(fields, value, codes, doc);
      if (packed) return `[${i},${valuesText(fields, packed).slice(1)}`;
    }
    return JSON.stringify(value);
  };
  const fromColumn: Field['fromColumn'] = (value, codes, doc) => {
    if (!Array.isArray(value)) return value;
    const [shape, ...values] = value as [number, ...unknown[]];
    return unpackValues(shapes[shape] as readonly Field[], values, codes, doc);
  };
  return { key, column, type: 'JSON', put, get: (row, doc, parent, codes) => fromColumn(row[column] ?? null, codes, doc, parent), fromColumn, shapes };
}

/** A value made from the rest of its record (a URI from an id, an update time never changed): nothing is kept when it is what `make` makes. */
export function derived(key: string, make: (doc: Doc) => unknown): Field {
  return { key, late: true, put: (value, doc) => (value === make(doc) ? null : UNKEPT), get: (_row, doc) => make(doc) };
}

function isDoc(value: unknown): value is Doc {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Which of each list of fields' columns (columnsOf) are JSON. */
const jsonColumns = madeOnce((fields: readonly Field[]) => columnsOf(fields).map(([, type]) => type === 'JSON'));

/** The JSON array of packed values (packValues), in column order (a JSON column's value as itself, not as a string of it). */
export function valuesText(fields: readonly Field[], packed: readonly SqlValue[]): string {
  const json = jsonColumns(fields);
  // Written out in one string, not mapped and joined: a generated sale writes a dozen of these.
  // A number is written as JSON writes it without asking JSON (most values are numbers: ids,
  // instants, cents, words).
  let text = '[';
  for (let i = 0; i < json.length; i += 1) {
    const value = packed[i];
    if (i > 0) text += ',';
    if (json[i]) text += String(value);
    else if (typeof value === 'number' && Number.isFinite(value)) text += String(value);
    else text += value === null || value === undefined ? 'null' : JSON.stringify(value);
  }
  return `${text}]`;
}

/** The document whose kept values are `values` (valuesText, parsed). */
export function unpackValues(fields: readonly Field[], values: readonly unknown[], codes: IdCodes, parent?: Doc): Doc {
  return valueUnpackers(fields)(values as unknown as Row, parent, codes);
}

/** The same value in every record: nothing is kept (an object is given back as a copy of its own). */
export function fixed(key: string, value: SqlValue | boolean | Doc): Field {
  const shown = JSON.stringify(value);
  const plain = value === null || typeof value !== 'object';
  return {
    key,
    put: (given) => (plain ? given === value : JSON.stringify(given) === shown) ? null : UNKEPT,
    get: () => (plain ? value : JSON.parse(shown)),
    constant: { value, plain },
  };
}

type Packer = (doc: Doc, parent: Doc | undefined, out: SqlValue[], codes: IdCodes) => boolean;
/** The packing of each list of fields, for each placing of their columns. */
const packers = madeOnce((slots: ReadonlyMap<string, number>) => madeOnce((fields: readonly Field[]) => compilePacker(fields, slots)));
/** Each list of fields' columns, placed in column order. */
const ownSlots = madeOnce((fields: readonly Field[]): ReadonlyMap<string, number> => new Map(columnsOf(fields).map(([name], i) => [name, i])));

/** The values of the columns the fields keep `doc` in, in column order (columnsOf); undefined when it does not have their shape. */
export function packValues(fields: readonly Field[], doc: Doc, codes: IdCodes, parent?: Doc): SqlValue[] | undefined {
  const slots = ownSlots(fields);
  const values = new Array<SqlValue>(slots.size);
  return packInto(fields, doc, values, slots, codes, parent) ? values : undefined;
}

/** packValues as a map of column to value. */
export function pack(fields: readonly Field[], doc: Doc, codes: IdCodes, parent?: Doc): Map<string, SqlValue> | undefined {
  const values = packValues(fields, doc, codes, parent);
  return values && new Map(columnsOf(fields).map(([name], i) => [name, values[i] as SqlValue]));
}

/**
 * Keeps `doc` in `out`, each column's value at its place in `slots`; false when `doc` does not
 * have the fields' shape (what is in `out` is then not to be used).
 */
export function packInto(fields: readonly Field[], doc: Doc, out: SqlValue[], slots: ReadonlyMap<string, number>, codes: IdCodes, parent?: Doc): boolean {
  return packers(slots)(fields)(doc, parent, out, codes);
}

/**
 * The keeping of a record, written out as one function for its list of fields (as compileUnpacker
 * for reading): the key order checked key by key, a constant compared with its literal, each
 * column's value put in its place of `out`.
 */
function compilePacker(fields: readonly Field[], slots: ReadonlyMap<string, number>): Packer {
  const lines: string[] = ['const keys = Object.keys(doc);', 'let value;'];
  fields.forEach((field, i) => {
    const key = JSON.stringify(field.key);
    lines.push(`if (keys[${i}] !== ${key}) return false;`);
    if (field.inner) {
      lines.push(`{ const sub = doc[${key}];`, "if (sub === null || typeof sub !== 'object' || Array.isArray(sub)) return false;");
      lines.push(`if (!F.packInto(F[${i}].inner, sub, out, SLOTS, codes, doc)) return false; }`);
    } else if (field.constant?.plain) {
      lines.push(`if (doc[${key}] !== ${JSON.stringify(field.constant.value)}) return false;`);
    } else {
      lines.push(`value = F[${i}].put(doc[${key}], doc, parent, codes);`, 'if (value === UNKEPT) return false;');
      if (field.column) lines.push(`out[${slots.get(field.column)}] = value;`);
    }
  });
  lines.push(`return keys.length === ${fields.length};`);
  const given = Object.assign([...fields], { packInto });
  // Made from the field lists of schema.ts only, never from anything stored or received.
  return new Function('F', 'UNKEPT', 'SLOTS', `return function pack(doc, parent, out, codes) {\n${lines.join('\n')}\n};`)(given, UNKEPT, slots) as Packer;
}

/** The row `packed` reads back as: its JSON columns parsed. */
export function readBack(fields: readonly Field[], packed: Map<string, SqlValue>): Row {
  const types = new Map(columnsOf(fields));
  return Object.fromEntries([...packed].map(([name, value]) => [name, types.get(name) === 'JSON' ? JSON.parse(String(value)) : value]));
}

type Unpacker = (row: Row, parent: Doc | undefined, codes: IdCodes) => Doc;
const unpackers = madeOnce((fields: readonly Field[]) => compileUnpacker(fields, 'row'));
const valueUnpackers = madeOnce((fields: readonly Field[]) => compileUnpacker(fields, 'values'));

/** The document the fields kept in `row`. */
export function unpack(fields: readonly Field[], row: Row, codes: IdCodes, parent?: Doc): Doc {
  return unpackers(fields)(row, parent, codes);
}

/**
 * The reading of a record, written out as one function for its list of fields: each key set in
 * turn (so every record read has one shape), constants as literals, a column's value converted
 * without going through the field. Reading every sale back is mostly this; a loop over the fields
 * took twice as long.
 */
function compileUnpacker(fields: readonly Field[], from: 'row' | 'values'): Unpacker {
  const places = new Map(columnsOf(fields).map(([name], i) => [name, i]));
  // From an array of values (valuesText): a field that reads the row itself is given one made of them.
  const lines: string[] = from === 'values' ? ['const values = row;', 'row = F.rowOf(values);', 'const doc = {};'] : ['const doc = {};'];
  const column = (field: Field) => (from === 'values' ? `values[${places.get(field.column as string)}]` : `row[${JSON.stringify(field.column)}]`);
  fields.forEach((field, i) => {
    const key = JSON.stringify(field.key);
    if (field.late) lines.push(`doc[${key}] = undefined;`);
    // A JSON text is a literal of JavaScript too: an object's is a new copy each time it runs.
    else if (field.constant) lines.push(`doc[${key}] = ${JSON.stringify(field.constant.value)};`);
    else if (field.fromColumn) lines.push(`doc[${key}] = F[${i}].fromColumn(${column(field)} ?? null, codes, doc, parent);`);
    else lines.push(`doc[${key}] = F[${i}].get(row, doc, parent, codes);`);
  });
  fields.forEach((field, i) => {
    if (!field.late) return;
    const key = JSON.stringify(field.key);
    lines.push(field.fromColumn ? `doc[${key}] = F[${i}].fromColumn(${column(field)} ?? null, codes, doc, parent);` : `doc[${key}] = F[${i}].get(row, doc, parent, codes);`);
  });
  lines.push('return doc;');
  // Made from the field lists of schema.ts only, never from anything stored or received.
  const needsRow = fields.some((field) => (!field.fromColumn && field.column !== undefined) || field.inner);
  if (from === 'values' && !needsRow) lines.splice(1, 1);
  const given = Object.assign([...fields], { rowOf: (values: unknown[]) => Object.fromEntries([...places].map(([name, i]) => [name, values[i] ?? null])) });
  return new Function('F', `return function unpack(row, parent, codes) {\n${lines.join('\n')}\n};`)(given) as Unpacker;
}
