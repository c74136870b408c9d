// Terminal tables, loaded only for `-o table`.
//
// Lists print like `gh`: a bold header, columns separated by two spaces, no borders. The padding is
// our own rather than cli-table3's: cli-table3 sizes columns from the rows it is handed, so a
// streamed list would need one table per page with pinned colWidths; even with empty `chars` it
// pads every cell (trailing spaces after the last column) and cuts money and ids like any other
// text. Doing it here is a few lines, keeps the first page's widths for every later page, never cuts
// money, dates, statuses or ids, and saves loading a module. Widths are measured on plain text and
// colour is added last, so escape codes never count towards a width.
import { flatten, getPath } from './fields.js';
import { colorStatus, formatDateTime, formatMoney, kindForKey } from './format.js';
import type { Column, RenderOptions } from './render.js';
import { writeOut } from './write.js';

type Kind = NonNullable<Column['kind']>;

interface Style {
  bold(text: string): string;
  status(text: string): string;
}

/** chalk is loaded only when colour is on; without it, no escape code can be written. */
async function loadStyle(color: boolean): Promise<Style> {
  if (!color) return { bold: (t) => t, status: (t) => t };
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: 1 });
  return { bold: (t) => chalk.bold(t), status: (t) => colorStatus(t, chalk) };
}

const GAP = '  ';
/** Columns are not squeezed below this when fitting a terminal. */
const MIN_WIDTH = 6;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): boolean {
  return value === null || (typeof value !== 'object' && typeof value !== 'function');
}

/**
 * API text is untrusted: control characters (escape sequences could repaint the terminal) and
 * bidirectional overrides are replaced, and newlines or tabs become spaces so rows stay rows.
 */
function sanitize(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').replace(/[\u202a-\u202e\u2066-\u2069]/g, '');
}

function charWidth(codePoint: number, char: string): number {
  if (/\p{Mn}|\p{Me}|[\u200b-\u200f\ufe00-\ufe0f]/u.test(char)) return 0;
  if (
    /\p{Emoji_Presentation}/u.test(char) ||
    (codePoint >= 0x1100 && codePoint <= 0x115f) ||
    (codePoint >= 0x2e80 && codePoint <= 0xa4cf) ||
    (codePoint >= 0xac00 && codePoint <= 0xd7a3) ||
    (codePoint >= 0xf900 && codePoint <= 0xfaff) ||
    (codePoint >= 0xfe30 && codePoint <= 0xfe4f) ||
    (codePoint >= 0xff00 && codePoint <= 0xff60) ||
    (codePoint >= 0xffe0 && codePoint <= 0xffe6) ||
    (codePoint >= 0x20000 && codePoint <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

/** Columns a string occupies on a terminal (accents combine, CJK and emoji take two). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char.codePointAt(0) as number, char);
  return width;
}

/** Cuts to `width` columns, ending in "…" when something was cut. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = charWidth(char.codePointAt(0) as number, char);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}

/** The currency that goes with a money value: a sibling `currency`, else the object's own. */
function currencyFor(root: unknown, path: string): string | undefined {
  const dot = path.lastIndexOf('.');
  const sibling = dot > 0 ? getPath(root, `${path.slice(0, dot)}.currency`) : undefined;
  if (typeof sibling === 'string' && sibling !== '') return sibling;
  const own = getPath(root, 'currency');
  return typeof own === 'string' && own !== '' ? own : undefined;
}

function scalarText(value: unknown, kind: Kind, currency: string | undefined): string {
  if (value === null || value === undefined) return '';
  if (kind === 'money' && (typeof value === 'string' || typeof value === 'number')) return formatMoney(value, currency);
  if (kind === 'date' && typeof value === 'string') return formatDateTime(value);
  return String(value);
}

function countItems(n: number): string {
  return `[${n} ${n === 1 ? 'item' : 'items'}]`;
}

/**
 * A value as table text. Arrays of plain values (what a path such as `history.status` selects) are
 * joined; arrays holding objects show their size; a leftover object shows as compact JSON.
 */
function cellText(value: unknown, kind: Kind, root: unknown, path: string): string {
  const currency = kind === 'money' ? currencyFor(root, path) : undefined;
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isScalar)) return sanitize(value.map((v) => scalarText(v, kind, currency)).join(', '));
    return countItems(value.length);
  }
  if (isPlainObject(value)) return sanitize(JSON.stringify(value));
  return sanitize(scalarText(value, kind, currency));
}

function styleCell(text: string, kind: Kind, style: Style): string {
  return kind === 'status' && text !== '' ? style.status(text) : text;
}

interface TableColumn {
  key: string;
  header: string;
  kind: Kind;
  align: 'left' | 'right';
  /**
   * Money, dates, statuses and ids are never cut: "R$ 99.999…" reads as a different amount, a cut
   * status or id means nothing and cannot be copied. A later-page value wider than its column
   * overflows that one row instead.
   */
  cuttable: boolean;
}

function isIdKey(key: string): boolean {
  const last = key.slice(key.lastIndexOf('.') + 1);
  return last === 'id' || last.endsWith('_id');
}

function toTableColumn(key: string, header: string, kind: Kind | undefined): TableColumn {
  const k = kind ?? kindForKey(key);
  const cuttable = k === 'text' && !isIdKey(key);
  return { key, header: sanitize(header), kind: k, align: k === 'money' ? 'right' : 'left', cuttable };
}

/** --fields, else the resource's columns, else `id` and the next few plain fields of the first item. */
function chooseColumns(first: unknown, opts: RenderOptions): TableColumn[] {
  if (opts.fields) {
    return opts.fields.map((field) => {
      const known = opts.columns?.find((c) => c.key === field);
      return toTableColumn(field, known?.header ?? field.toUpperCase(), known?.kind);
    });
  }
  if (opts.columns && opts.columns.length > 0) return opts.columns.map((c) => toTableColumn(c.key, c.header, c.kind));
  if (!isPlainObject(first)) return [toTableColumn('', 'VALUE', 'text')];
  const keys = Object.keys(first).filter((k) => isScalar(first[k]));
  const ordered = keys.includes('id') ? ['id', ...keys.filter((k) => k !== 'id')] : keys;
  return ordered.slice(0, 6).map((k) => toTableColumn(k, k.toUpperCase(), undefined));
}

/** Narrows the widest cuttable columns until the row fits the terminal (when the stream is one). */
function fitToTerminal(widths: number[], columns: TableColumn[], terminalColumns: number | undefined): number[] {
  if (!terminalColumns || terminalColumns <= 0) return widths;
  const fitted = [...widths];
  let over = fitted.reduce((a, b) => a + b, 0) + GAP.length * (fitted.length - 1) - terminalColumns;
  while (over > 0) {
    let widest = -1;
    for (let i = 0; i < fitted.length; i++) {
      if (!columns[i]?.cuttable) continue;
      if ((fitted[i] as number) > MIN_WIDTH && (widest < 0 || (fitted[i] as number) > (fitted[widest] as number))) widest = i;
    }
    if (widest < 0) break;
    const current = fitted[widest] as number;
    const next = Math.max(MIN_WIDTH, current - over);
    fitted[widest] = next;
    over -= current - next;
  }
  return fitted;
}

function terminalColumns(out: NodeJS.WritableStream): number | undefined {
  const stream = out as NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  return stream.isTTY && typeof stream.columns === 'number' ? stream.columns : undefined;
}

function formatRow(cells: string[], columns: TableColumn[], widths: number[], style: Style, header: boolean): string {
  const parts = cells.map((text, i) => {
    const column = columns[i] as TableColumn;
    const cut = column.cuttable || header ? truncate(text, widths[i] as number) : text;
    const styled = header ? style.bold(cut) : styleCell(cut, column.kind, style);
    const fill = ' '.repeat(Math.max(0, (widths[i] as number) - displayWidth(cut)));
    return column.align === 'right' ? fill + styled : styled + fill;
  });
  // Trailing spaces are padding of empty or short last cells; no line ends in whitespace.
  return `${parts.join(GAP).trimEnd()}\n`;
}

/**
 * Aligned rows. Column widths come from the header and the first page and stay fixed, so every
 * later page is printed as it arrives (cells cut with "…"). An empty list prints nothing: the
 * caller says "no results" on stderr, and stdout stays empty for scripts.
 */
export async function renderTableList(pages: AsyncIterable<unknown[]>, opts: RenderOptions): Promise<number> {
  const style = await loadStyle(opts.color);
  let columns: TableColumn[] | undefined;
  let widths: number[] = [];
  let count = 0;
  for await (const page of pages) {
    if (page.length === 0) continue;
    const cols = (columns ??= chooseColumns(page[0], opts));
    const rows = page.map((item) => cols.map((c) => cellText(getPath(item, c.key), c.kind, item, c.key)));
    let chunk = '';
    if (count === 0) {
      widths = cols.map((c, i) => Math.max(displayWidth(c.header), ...rows.map((r) => displayWidth(r[i] as string))));
      widths = fitToTerminal(widths, cols, terminalColumns(opts.out));
      chunk += formatRow(cols.map((c) => c.header), cols, widths, style, true);
    }
    for (const row of rows) chunk += formatRow(row, cols, widths, style, false);
    count += page.length;
    await writeOut(opts.out, chunk);
  }
  return count;
}

/** Rows of one object: dotted keys; a field that selects an object or array expands into its parts. */
function objectRows(obj: Record<string, unknown>, fields: string[] | undefined): Array<[string, unknown]> {
  if (!fields) return Object.entries(flatten(obj));
  const rows: Array<[string, unknown]> = [];
  for (const field of fields) {
    const value = getPath(obj, field);
    const expand = isPlainObject(value) || (Array.isArray(value) && !value.every(isScalar));
    const parts = expand ? Object.entries(flatten(value, { expandArrays: true })) : [];
    if (parts.length === 0) rows.push([field, value]);
    else for (const [key, v] of parts) rows.push([`${field}.${key}`, v]);
  }
  return rows;
}

/**
 * A single object as a field/value table: nested objects flattened to dotted keys, arrays shown as
 * `[3 items]` unless --fields selects into them, money/dates formatted, statuses coloured.
 */
export async function renderObjectTable(obj: unknown, opts: RenderOptions): Promise<void> {
  if (!isPlainObject(obj)) {
    await writeOut(opts.out, `${sanitize(obj === null || obj === undefined ? '' : String(obj))}\n`);
    return;
  }
  const style = await loadStyle(opts.color);
  const rows = objectRows(obj, opts.fields).map(([key, value]) => {
    const kind = kindForKey(key);
    const text =
      Array.isArray(value) && !opts.fields ? countItems(value.length) : cellText(value, kind, obj, key);
    return { key: sanitize(key), text, kind };
  });
  const keyWidth = Math.min(40, Math.max(0, ...rows.map((r) => displayWidth(r.key))));
  let chunk = '';
  for (const row of rows) {
    const key = truncate(row.key, keyWidth);
    const line =
      row.text === ''
        ? style.bold(key)
        : `${style.bold(key)}${' '.repeat(keyWidth - displayWidth(key))}${GAP}${styleCell(row.text, row.kind, style)}`;
    chunk += `${line}\n`;
  }
  await writeOut(opts.out, chunk);
}
