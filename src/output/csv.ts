// CSV: a header row of dotted paths, then one row per item. Loaded only for `-o csv`.
// Values are the API's own (no money or date formatting); only the shape is flattened.
import { flatten, pathReader } from './fields.js';
import type { RenderOptions } from './render.js';
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
export function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Column order: the order keys are first seen in the first page. */
function columnsOf(page: unknown[]): string[] {
  const keys = new Set<string>();
  for (const item of page) for (const key of Object.keys(flatten(asRecord(item)))) keys.add(key);
  return [...keys];
}

/**
 * With --fields, or a resource's fixed CSV columns, the columns are exactly those paths, in that
 * order (and the header is printed even for an empty list, so scripts always see the same shape).
 * Otherwise they are the flattened keys of the first non-empty page; keys that first appear later
 * are dropped, since rows already written cannot grow a column.
 */
export async function renderCsvList(pages: AsyncIterable<unknown[]>, opts: RenderOptions): Promise<number> {
  const { stringify } = await import('csv-stringify/sync');
  let columns = opts.fields ?? opts.csvColumns;
  let readers: Array<(obj: unknown) => unknown> | undefined;
  let headerWritten = false;
  let count = 0;
  for await (const page of pages) {
    if (page.length === 0) continue;
    columns ??= columnsOf(page);
    const records: string[][] = [];
    if (!headerWritten) {
      records.push(columns);
      headerWritten = true;
    }
    // Each cell is looked up by its path: flattening every row only to read a few columns of it
    // was most of an export's time.
    readers ??= columns.map(pathReader);
    for (const item of page) {
      const record = asRecord(item);
      records.push(readers.map((read) => cell(read(record))));
    }
    count += page.length;
    await writeOut(opts.out, stringify(records));
  }
  if (!headerWritten && columns && columns.length > 0) await writeOut(opts.out, stringify([columns]));
  return count;
}
