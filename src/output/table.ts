// Terminal tables, loaded only for `-o table`, drawn by cli-table3.
//
// Lists print like `gh`: a bold header, columns separated by two spaces, no borders. That is
// cli-table3 with every border character empty but `middle` (the two spaces), no padding and no
// colours of its own: colour is ours (chalk, loaded only when colour is on) and goes into the cells
// ready-made; cli-table3 measures text without escape codes, so they never count towards a width.
// cli-table3 does the measuring (string-width: accents combine, CJK and emoji take two columns),
// the padding, the alignment and the cutting with "…". Around it, for a stream:
//
// - Widths are pinned per stream. A list arrives page by page and cli-table3 sizes a table from the
//   rows it is handed, so each page is a Table of its own. The header and the first page are
//   measured by cli-table3, fitted to the terminal, and those colWidths are passed to every later
//   page's Table: every page lines up with the header, and each page is written as it arrives.
// - Fitting happens only on a terminal (a pipe gets full widths). It narrows plain text columns
//   (descriptions, names, e-mails), the widest first, never below MIN_WIDTH; cli-table3 cuts those
//   cells with "…". Money, dates, statuses and ids (`id`, `*_id`, reference_id included) are never
//   cut: "R$ 99.999…" reads as a different amount, and a cut id or status means nothing and cannot
//   be copied. A row may then stay wider than the terminal. cli-table3 would cut any cell wider
//   than its column, so a later page holding such a value wider than the first page's column is
//   measured row by row, and a row that needs it is drawn with that column widened: that one row
//   overflows, the rest of the page stays aligned.
// - cli-table3 pads every cell, the last one too: trailing whitespace is stripped from each line.
// - API text is untrusted and is sanitised before it reaches a cell (see `sanitize`).
//
// cli-table3 is CommonJS, imported dynamically on first use (never at start-up); its `default` is
// the constructor both under Node.js and in the esbuild bundle. The totals line under a list
// (totals.ts) is drawn with the same layout.
import type CliTable3 from 'cli-table3';
import { flatten, getPath } from './fields.js';
import { colorStatus, formatDateTime, formatMoney, kindForKey } from './format.js';
import { counted } from './plural.js';
import type { Column, RenderOptions } from './render.js';
import { writeOut } from './write.js';

type Kind = NonNullable<Column['kind']>;
type Align = 'left' | 'right';
export type TableConstructor = typeof CliTable3;

let loading: Promise<TableConstructor> | undefined;

/** cli-table3, imported on first use; every caller shares the one import. */
export function loadTable(): Promise<TableConstructor> {
  loading ??= import('cli-table3').then(
    ({ default: Table }) => Table,
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

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
/** Keys of a single-object table are cut beyond this. */
const MAX_KEY_WIDTH = 40;

/** `gh`-style: no borders, two spaces between columns, no padding, no colours from cli-table3. */
const BORDERLESS = {
  chars: {
    top: '',
    'top-mid': '',
    'top-left': '',
    'top-right': '',
    bottom: '',
    'bottom-mid': '',
    'bottom-left': '',
    'bottom-right': '',
    left: '',
    'left-mid': '',
    mid: '',
    'mid-mid': '',
    right: '',
    'right-mid': '',
    middle: GAP,
  },
  style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  wordWrap: false,
  truncate: '…',
} satisfies CliTable3.TableConstructorOptions;

export interface Layout {
  /** Header cells (already styled). */
  head?: string[];
  /** Per column; null lets cli-table3 size the column from its cells. */
  colWidths?: Array<number | null>;
  colAligns?: Align[];
  /** This column's cells wrap onto more lines (hard, at the column's edge) instead of being cut. */
  wrapColumn?: number;
}

/**
 * cli-table3 cuts by UTF-16 unit and can keep half of an emoji before the "…" (it counts that half
 * as one column). The half goes and the "…" takes its place, followed by a space: same width.
 */
const HALF_CUT = /[\ud800-\udbff](?![\udc00-\udfff])((?:\x1b\[[\d;]*m)*)…/g;

/** Rows drawn by cli-table3 in the borderless layout: one line each, none ending in whitespace. */
export function drawLines(Table: TableConstructor, rows: string[][], layout: Layout = {}): string {
  if (rows.length === 0 && !layout.head?.length) return '';
  const table = new Table({
    ...BORDERLESS,
    head: layout.head ?? [],
    // Copies: cli-table3 writes the widths it settles on back into the array it is given.
    colWidths: [...(layout.colWidths ?? [])],
    colAligns: [...(layout.colAligns ?? [])],
  });
  const wrap = layout.wrapColumn;
  for (const row of rows) {
    table.push(wrap === undefined ? row : row.map((content, i) => (i === wrap ? { content, wordWrap: true, wrapOnWordBoundary: false } : content)));
  }
  let out = '';
  for (const line of table.toString().split('\n')) out += `${line.replace(HALF_CUT, '$1… ').trimEnd()}\n`;
  return out;
}

/**
 * The width cli-table3 gives each column of these rows on its own (its widest cell). Laying a
 * table out is how cli-table3 measures: it writes the widths it settled on into options.colWidths.
 */
function measure(Table: TableConstructor, rows: string[][]): number[] {
  const table = new Table({ ...BORDERLESS, colWidths: [] });
  for (const row of rows) table.push(row);
  table.toString();
  return table.options.colWidths.map((width) => {
    if (typeof width !== 'number') throw new Error('cli-table3 did not report its column widths');
    return width;
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): boolean {
  return value === null || (typeof value !== 'object' && typeof value !== 'function');
}

/**
 * API text is untrusted: control characters (escape sequences could repaint the terminal) and
 * bidirectional overrides are replaced, and newlines or tabs become spaces so rows stay rows (and a
 * cell stays one line in cli-table3). Half an emoji (a lone surrogate) becomes U+FFFD.
 */
function sanitize(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/[\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
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
  return `[${counted(n, 'item')}]`;
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

function styleRow(cells: string[], columns: TableColumn[], style: Style): string[] {
  return cells.map((text, i) => styleCell(text, (columns[i] as TableColumn).kind, style));
}

/**
 * A later page, in the first page's widths. Should a money, date, status or id value be wider than
 * its column, cli-table3 would cut it: the rows that hold one are drawn with that column widened
 * (that row overflows), the others in the pinned widths.
 */
function drawLaterPage(Table: TableConstructor, rows: string[][], columns: TableColumn[], widths: number[], style: Style): string {
  const colAligns = columns.map((c) => c.align);
  const pinned: Layout = { colWidths: widths, colAligns };
  const uncut = columns.flatMap((c, i) => (c.cuttable ? [] : [i]));
  const fits = (measured: number[]) => uncut.every((col, j) => (measured[j] as number) <= (widths[col] as number));
  const uncutCells = (row: string[]) => uncut.map((col) => row[col] as string);
  if (uncut.length === 0 || fits(measure(Table, rows.map(uncutCells)))) {
    return drawLines(Table, rows.map((row) => styleRow(row, columns, style)), pinned);
  }
  let out = '';
  let run: string[][] = [];
  for (const row of rows) {
    const measured = measure(Table, [uncutCells(row)]);
    if (fits(measured)) {
      run.push(styleRow(row, columns, style));
      continue;
    }
    out += drawLines(Table, run, pinned);
    run = [];
    const own = [...widths];
    uncut.forEach((col, j) => {
      own[col] = Math.max(own[col] as number, measured[j] as number);
    });
    out += drawLines(Table, [styleRow(row, columns, style)], { colWidths: own, colAligns });
  }
  return out + drawLines(Table, run, pinned);
}

/**
 * Aligned rows. Column widths come from the header and the first page and stay fixed, so every
 * later page is printed as it arrives (text cells cut with "…"). An empty list prints nothing: the
 * caller says "no results" on stderr, and stdout stays empty for scripts.
 */
export async function renderTableList(pages: AsyncIterable<unknown[]>, opts: RenderOptions): Promise<number> {
  const [Table, style] = await Promise.all([loadTable(), loadStyle(opts.color)]);
  let columns: TableColumn[] | undefined;
  let widths: number[] = [];
  let count = 0;
  for await (const page of pages) {
    if (page.length === 0) continue;
    const cols = (columns ??= chooseColumns(page[0], opts));
    const rows = page.map((item) => cols.map((c) => cellText(getPath(item, c.key), c.kind, item, c.key)));
    let chunk: string;
    if (count === 0) {
      const header = cols.map((c) => c.header);
      widths = fitToTerminal(measure(Table, [header, ...rows]), cols, terminalColumns(opts.out));
      chunk = drawLines(Table, rows.map((row) => styleRow(row, cols, style)), {
        head: header.map((h) => style.bold(h)),
        colWidths: widths,
        colAligns: cols.map((c) => c.align),
      });
    } else {
      chunk = drawLaterPage(Table, rows, cols, widths, style);
    }
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
  const [Table, style] = await Promise.all([loadTable(), loadStyle(opts.color)]);
  const rows = objectRows(obj, opts.fields).map(([key, value]) => {
    const kind = kindForKey(key);
    const text =
      Array.isArray(value) && !opts.fields ? countItems(value.length) : cellText(value, kind, obj, key);
    return { key: sanitize(key), text, kind };
  });
  if (rows.length === 0) return;
  // Keys are cut beyond MAX_KEY_WIDTH; values are never cut. On a terminal, a value longer than
  // the room beside its key (a URL, a barcode, an address) wraps within its column, so the key
  // column stays clear instead of the terminal folding the line back to its first column.
  const keyWidth = Math.min(MAX_KEY_WIDTH, measure(Table, rows.map((r) => [r.key]))[0] as number);
  const cells = rows.map((r) => [style.bold(r.key), styleCell(r.text, r.kind, style)]);
  const terminal = terminalColumns(opts.out);
  const room = terminal === undefined ? undefined : terminal - keyWidth - GAP.length;
  const valueWidth = measure(Table, rows.map((r) => [r.text]))[0] as number;
  const wrap = room !== undefined && room >= MIN_WIDTH && valueWidth > room;
  await writeOut(opts.out, drawLines(Table, cells, wrap ? { colWidths: [keyWidth, room], wrapColumn: 1 } : { colWidths: [keyWidth, null] }));
}
