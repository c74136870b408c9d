// CSV: a header row of dotted paths, then one row per item. Loaded only for `-o csv`.
// Values are the API's own (no money or date formatting); only the shape is flattened. The one
// change made to them is for safety when the file is opened (see `safeCell`).
import { withoutControls } from '../platform/control-chars.js';
import { csvDialect } from './csv-locale.js';
import { flatten, pathReader } from './fields.js';
import type { RenderOptions } from './render-options.js';
import { writeOut } from './write.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Items that are not objects (a list of ids) get a single `value` column. */
function asRecord(item: unknown): Record<string, unknown> {
  return isPlainObject(item) ? item : { value: item };
}

/**
 * Cells are always strings, so csv-stringify's own casting (booleans as "1"/"") never applies:
 * null → empty, objects and arrays → JSON text.
 */
function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** "-4.00", "-12", "+3": a spreadsheet reads these as the numbers they are, never as formulas. */
const PLAIN_NUMBER = /^[+-]?\d+(?:\.\d+)?$/;
/** What makes a spreadsheet take a cell for a formula (OWASP "CSV injection"), after any spaces. */
const FORMULA_START = /^\s*[=+\-@]/;
/** A cell that began with a tab or carriage return: some spreadsheets skip those and read on. */
const TAB_OR_CR_START = /^[\t\r]/;

/**
 * A cell as written to a CSV file that someone will open in a spreadsheet. API text is untrusted:
 * escape sequences and control characters are removed (tabs and line breaks become spaces), and a
 * cell a spreadsheet would run as a formula (`=cmd|' /C calc'!A0`, `+SUM(…)`, `@HYPERLINK(…)`,
 * or one that began with a tab or carriage return) is prefixed with `'`, so it shows as the text it
 * is. A plain number (`-4.00`) is left as it is. `raw` (--csv-raw) skips the prefixing only.
 */
export function safeCell(value: unknown, raw = false): string {
  const text = cell(value);
  const clean = withoutControls(text);
  if (raw) return clean;
  const formula = TAB_OR_CR_START.test(text) || (FORMULA_START.test(clean) && !PLAIN_NUMBER.test(clean));
  return formula ? `'${clean}` : clean;
}

/** Column order: the order keys are first seen in the first page. */
function columnsOf(page: unknown[]): string[] {
  const keys = new Set<string>();
  for (const item of page) for (const key of Object.keys(flatten(asRecord(item)))) keys.add(key);
  return [...keys];
}

/** Column names can be the API's own keys (any object's, for `payctl api`): untrusted too. */
function headerRow(columns: string[], opts: RenderOptions): string[] {
  return columns.map((column) => safeCell(column, opts.csvRaw));
}

/**
 * With --fields, or a resource's fixed CSV columns, the columns are exactly those paths, in that
 * order (and the header is printed even for an empty list, so scripts always see the same shape).
 * Otherwise they are the flattened keys of the first non-empty page; keys that first appear later
 * are dropped, since rows already written cannot grow a column.
 */
export async function renderCsvList(pages: AsyncIterable<unknown[]>, opts: RenderOptions): Promise<number> {
  const { stringify: plain } = await import('csv-stringify/sync');
  const dialect = csvDialect(opts.csvLocale);
  const stringify = (records: string[][]) => plain(records, { delimiter: dialect.delimiter });
  let columns = opts.fields ?? opts.csvColumns;
  let readers: Array<(obj: unknown) => unknown> | undefined;
  let headerWritten = false;
  let count = 0;
  for await (const page of pages) {
    if (page.length === 0) continue;
    columns ??= columnsOf(page);
    const records: string[][] = [];
    if (!headerWritten) {
      await writeOut(opts.out, dialect.bom);
      records.push(headerRow(columns, opts));
      headerWritten = true;
    }
    // Each cell is looked up by its path: flattening every row only to read a few columns of it
    // was most of an export's time.
    readers ??= columns.map(pathReader);
    for (const item of page) {
      const record = asRecord(item);
      records.push(readers.map((read) => dialect.cell(safeCell(read(record), opts.csvRaw))));
    }
    count += page.length;
    await writeOut(opts.out, stringify(records));
  }
  if (!headerWritten && columns && columns.length > 0) await writeOut(opts.out, dialect.bom + stringify([headerRow(columns, opts)]));
  return count;
}
