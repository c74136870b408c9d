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
// - Fitting happens only on a terminal (a pipe gets full widths), and no line is ever wider than
//   the terminal. Money, dates, statuses and ids are never cut or dropped: "R$ 99.999…" reads as a
//   different amount, and a cut id or status means nothing and cannot be copied. Text columns
//   (descriptions, references, names, e-mails) give way instead, in this order: each is cut to
//   COMFORT_WIDTH (cli-table3 cuts with "…"), then they are dropped one by one, the last of the
//   resource's columns first (resources list their columns most useful first), a masked CPF or
//   CNPJ among them (dropped like text, never cut: its last digits are what it is shown for); after them, ids
//   of other things a resource marks optional (a subscription's plan). Should even the
//   columns that are never cut not fit, each row is printed as a small block of "HEADER value"
//   lines instead. Spare room goes to money and status columns first, so a later page's bigger
//   amount still fits; a later-page value wider than its column widens that one row (its text
//   cells cut further to make room), and a row that still would not fit is printed as a block.
// - cli-table3 pads every cell, the last one too: trailing whitespace is stripped from each line.
// - API text is untrusted and is sanitised before it reaches a cell (see `sanitize`).
//
// cli-table3 is CommonJS, imported dynamically on first use (never at start-up); its `default` is
// the constructor both under Node.js and in the esbuild bundle. The totals line under a list
// (totals.ts) is drawn with the same layout.
import type CliTable3 from 'cli-table3';
import { sanitize } from './sanitize.js';
import { flatten, getPath } from './fields.js';
import { colorStatus, formatDateTime, formatMoney, kindForKey } from './format.js';
import { counted } from '../platform/plural.js';
import type { Column, RenderOptions } from './render-options.js';
import { writeOut } from './write.js';
import { wrapWords } from './wrap.js';

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

export interface Style {
  bold(text: string): string;
  status(text: string): string;
  /** A bar of a summary (summary.ts): green for money in; red for money out, which without colour keeps its leading −. */
  bar(text: string): string;
  /** What stands beside a value for reference only (the id after a name), and a note under a table (the zone its times are in). */
  dim(text: string): string;
}

/** chalk is loaded only when colour is on; without it, no escape code can be written. */
export async function loadStyle(color: boolean): Promise<Style> {
  if (!color) return { bold: (t) => t, status: (t) => t, bar: (t) => t, dim: (t) => t };
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: 1 });
  return {
    bold: (t) => chalk.bold(t),
    status: (t) => colorStatus(t, chalk),
    bar: (t) => (t.startsWith('−') ? chalk.red(t.slice(1)) : chalk.green(t)),
    dim: (t) => chalk.dim(t),
  };
}

/** The line under a table that shows times of day, naming their zone (time/zone.ts), UTC's too. */
export async function zoneLine(style: Style): Promise<string> {
  const { zoneNote } = await import('../time/zone.js');
  return `${style.dim(zoneNote())}\n`;
}

/**
 * Whether a table of these columns (or of `fields`, when --fields chose them) shows instants (a
 * creation time), which are in a zone, rather than days (a due date).
 */
export function showsInstants(columns: Column[], fields?: string[]): boolean {
  const kinds = fields ? fields.map((field) => [field, columns.find((c) => c.key === field)?.kind ?? kindForKey(field)] as const) : columns.map((c) => [c.key, c.kind] as const);
  return kinds.some(([key, kind]) => kind === 'date' && key.endsWith('_at'));
}

/** Whether any of these pairs shows a time of day (an instant), not only a day. */
export function showsTimes(pairs: Pair[]): boolean {
  return pairs.some((pair) => pair.kind === 'date' && /\d\d:\d\d$/.test(pair.text));
}

const GAP = '  ';
/** Columns are not squeezed below this when fitting a terminal. */
const MIN_WIDTH = 6;
/** Text columns are cut to this before any column is dropped. */
const COMFORT_WIDTH = 12;
/** Room money and status columns take from spare width, for later pages' wider values. */
const ROOM_FOR: Partial<Record<Kind, number>> = { money: 13, status: 14 };
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
export function cellText(value: unknown, kind: Kind, root: unknown, path: string): string {
  const currency = kind === 'money' ? currencyFor(root, path) : undefined;
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isScalar)) return sanitize(value.map((v) => scalarText(v, kind, currency)).join(', '));
    return countItems(value.length);
  }
  if (isPlainObject(value)) return sanitize(JSON.stringify(value));
  return sanitize(scalarText(value, kind, currency));
}

export function styleCell(text: string, kind: Kind, style: Style): string {
  if (kind === 'bar' && text !== '') return style.bar(text);
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
  /** An id of something else (a plan, a transfer): never cut, but dropped after the text columns. */
  optional: boolean;
  /** The width its values can take (Column.width), at least. */
  width?: number;
}

function toTableColumn(key: string, header: string, kind: Kind | undefined, optional = false, width?: number): TableColumn {
  const k = kind ?? kindForKey(key);
  return { key, header: sanitize(header), kind: k, align: k === 'money' ? 'right' : 'left', cuttable: k === 'text', optional, ...(width === undefined ? {} : { width }) };
}

/** --fields, else the resource's columns, else `id` and the next few plain fields of the first item. */
function chooseColumns(first: unknown, opts: RenderOptions): TableColumn[] {
  if (opts.fields) {
    return opts.fields.map((field) => {
      const known = opts.columns?.find((c) => c.key === field);
      // A field whose value is an id (a buyer's, a seller's) is never cut, whatever its name.
      const sample = isPlainObject(first) ? getPath(first, field) : undefined;
      const looksLikeId = typeof sample === 'string' && /^[0-9a-f]{32}$/.test(sample);
      return toTableColumn(field, known?.header ?? field.toUpperCase(), known?.kind ?? (looksLikeId ? 'id' : undefined));
    });
  }
  if (opts.columns && opts.columns.length > 0) return opts.columns.map((c) => toTableColumn(c.key, c.header, c.kind, c.optional === true, c.width));
  if (!isPlainObject(first)) return [toTableColumn('', 'VALUE', 'text')];
  const keys = Object.keys(first).filter((k) => isScalar(first[k]));
  const ordered = keys.includes('id') ? ['id', ...keys.filter((k) => k !== 'id')] : keys;
  return ordered.slice(0, 6).map((k) => toTableColumn(k, k.toUpperCase(), undefined));
}

function lineWidth(widths: number[]): number {
  return widths.reduce((a, b) => a + b, 0) + GAP.length * Math.max(0, widths.length - 1);
}

/** Cuts the widest cuttable columns, never below `floor`, until the row fits `room` (if it can). */
function narrow(widths: number[], columns: TableColumn[], room: number, floor: number): number[] {
  const fitted = [...widths];
  let over = lineWidth(fitted) - room;
  while (over > 0) {
    let widest = -1;
    for (let i = 0; i < fitted.length; i++) {
      if (!columns[i]?.cuttable) continue;
      if ((fitted[i] as number) > floor && (widest < 0 || (fitted[i] as number) > (fitted[widest] as number))) widest = i;
    }
    if (widest < 0) break;
    const current = fitted[widest] as number;
    const next = Math.max(floor, current - over);
    fitted[widest] = next;
    over -= current - next;
  }
  return fitted;
}

/** Spare room, up to what each needs, to money and status columns. */
function spareToRoomy(widths: number[], columns: TableColumn[], room: number): number[] {
  const widened = [...widths];
  let spare = room - lineWidth(widened);
  columns.forEach((column, i) => {
    const wanted = ROOM_FOR[column.kind];
    if (wanted === undefined || spare <= 0) return;
    const extra = Math.min(spare, Math.max(0, wanted - (widened[i] as number)));
    widened[i] = (widened[i] as number) + extra;
    spare -= extra;
  });
  return widened;
}

interface Fit {
  /** Indexes of the columns shown, in order. */
  shown: number[];
  widths: number[];
}

/**
 * Which columns a terminal of `room` columns shows, and how wide (see the notes at the top);
 * undefined when not even the columns that are never cut fit, and rows go as blocks.
 */
function fitColumns(widths: number[], columns: TableColumn[], room: number | undefined): Fit | undefined {
  const all = columns.map((_, i) => i);
  if (!room || room <= 0) return { shown: all, widths };
  const droppable = [...all.filter((i) => columns[i]?.cuttable || columns[i]?.kind === 'document').reverse(), ...all.filter((i) => columns[i]?.optional).reverse()];
  const attempt = (gone: Set<number>): Fit | undefined => {
    const shown = all.filter((i) => !gone.has(i));
    const shownColumns = shown.map((i) => columns[i] as TableColumn);
    const fitted = narrow(shown.map((i) => widths[i] as number), shownColumns, room, COMFORT_WIDTH);
    return lineWidth(fitted) <= room ? { shown, widths: fitted } : undefined;
  };
  for (let dropped = 0; dropped <= droppable.length; dropped++) {
    const gone = new Set(droppable.slice(0, dropped));
    let fit = attempt(gone);
    if (!fit) continue;
    // Dropping the last one may have made room for one dropped before it (a narrow column that
    // went first only because it is less useful): each comes back if it still fits.
    for (const column of droppable.slice(0, Math.max(0, dropped - 1)).reverse()) {
      gone.delete(column);
      const wider = attempt(gone);
      if (wider) fit = wider;
      else gone.add(column);
    }
    return { shown: fit.shown, widths: spareToRoomy(fit.widths, fit.shown.map((i) => columns[i] as TableColumn), room) };
  }
  return undefined;
}

/**
 * The width of the terminal `out` is, or undefined when it is not one or does not say (a
 * pseudo-terminal nobody sized reports 0 columns: fitting to that would break every word).
 */
export function terminalColumns(out: NodeJS.WritableStream): number | undefined {
  const stream = out as NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  return stream.isTTY && typeof stream.columns === 'number' && stream.columns > 0 ? stream.columns : undefined;
}

function styleRow(cells: string[], columns: TableColumn[], style: Style): string[] {
  return cells.map((text, i) => styleCell(text, (columns[i] as TableColumn).kind, style));
}

/**
 * Rows that do not fit as a table, each as a block of "HEADER  value" lines and a blank line
 * between blocks. Text values are cut to the room left of the header; nothing else is cut.
 */
function drawBlocks(Table: TableConstructor, rows: string[][], columns: TableColumn[], style: Style, room: number): string {
  const headerWidth = Math.max(...columns.map((c) => measure(Table, [[c.header]])[0] as number));
  const valueRoom = Math.max(MIN_WIDTH, room - headerWidth - GAP.length);
  let out = '';
  for (const row of rows) {
    const lines = row.flatMap((text, i) => {
      const column = columns[i] as TableColumn;
      if (text === '') return [];
      const cut = column.cuttable ? (measure(Table, [[text]])[0] as number) > valueRoom : false;
      return [[style.bold(column.header), styleCell(cut ? drawLines(Table, [[text]], { colWidths: [valueRoom] }).trimEnd() : betweenWords(text, valueRoom), column.kind, style)]];
    });
    out += `${out === '' ? '' : '\n'}${drawLines(Table, lines, { colWidths: [headerWidth, null] })}`;
  }
  return out;
}

/** What one stream of pages needs to print each page the same way. */
interface PinnedLayout {
  fit: Fit;
  room: number | undefined;
}

/**
 * A later page, in the first page's widths. Should a money, date, status or id value be wider than
 * its column, cli-table3 would cut it: the rows that hold one are drawn with that column widened
 * (that row overflows its neighbours), or as a block if it would be wider than the terminal.
 */
function drawLaterPage(Table: TableConstructor, rows: string[][], columns: TableColumn[], pinned: PinnedLayout, style: Style): string {
  const { widths } = pinned.fit;
  const colAligns = columns.map((c) => c.align);
  const layout: Layout = { colWidths: widths, colAligns };
  const uncut = columns.flatMap((c, i) => (c.cuttable ? [] : [i]));
  const fits = (measured: number[]) => uncut.every((col, j) => (measured[j] as number) <= (widths[col] as number));
  const uncutCells = (row: string[]) => uncut.map((col) => row[col] as string);
  if (uncut.length === 0 || fits(measure(Table, rows.map(uncutCells)))) {
    return drawLines(Table, rows.map((row) => styleRow(row, columns, style)), layout);
  }
  let out = '';
  let run: string[][] = [];
  for (const row of rows) {
    const measured = measure(Table, [uncutCells(row)]);
    if (fits(measured)) {
      run.push(styleRow(row, columns, style));
      continue;
    }
    out += drawLines(Table, run, layout);
    run = [];
    let own = [...widths];
    uncut.forEach((col, j) => {
      own[col] = Math.max(own[col] as number, measured[j] as number);
    });
    // On a terminal, the row's text cells are cut further to make the room; failing that, a block.
    if (pinned.room !== undefined) own = narrow(own, columns, pinned.room, MIN_WIDTH);
    out +=
      pinned.room !== undefined && lineWidth(own) > pinned.room
        ? drawBlocks(Table, [row], columns, style, pinned.room)
        : drawLines(Table, [styleRow(row, columns, style)], { colWidths: own, colAligns });
  }
  return out + drawLines(Table, run, layout);
}

/**
 * Aligned rows. Which columns show and how wide comes from the header and the first page and stays
 * fixed, so every later page is printed as it arrives. An empty list prints nothing: the caller
 * says "no results" on stderr, and stdout stays empty for scripts.
 */
export async function renderTableList(pages: AsyncIterable<unknown[]>, opts: RenderOptions): Promise<number> {
  const [Table, style] = await Promise.all([loadTable(), loadStyle(opts.color)]);
  const room = terminalColumns(opts.out);
  let columns: TableColumn[] | undefined;
  // Undefined once the first page is in: rows go as blocks.
  let pinned: PinnedLayout | undefined;
  let count = 0;
  for await (const page of pages) {
    if (page.length === 0) continue;
    const all = (columns ??= chooseColumns(page[0], opts));
    const cells = page.map((item) => all.map((c) => cellText(getPath(item, c.key), c.kind, item, c.key)));
    let chunk: string;
    if (count === 0) {
      const measured = measure(Table, [all.map((c) => c.header), ...cells]).map((width, i) => Math.max(width, all[i]?.width ?? 0));
      const fit = fitColumns(measured, all, room);
      pinned = fit && { fit, room };
      const dropped = fit ? all.filter((_, i) => !fit.shown.includes(i)).map((c) => c.header) : [];
      if (dropped.length > 0) opts.onDropped?.(dropped);
    }
    if (!pinned) {
      chunk = `${count === 0 ? '' : '\n'}${drawBlocks(Table, cells, all, style, room as number)}`;
    } else {
      const shown = pinned.fit.shown.map((i) => all[i] as TableColumn);
      const rows = cells.map((row) => pinned!.fit.shown.map((i) => row[i] as string));
      chunk =
        count === 0
          ? drawLines(Table, rows.map((row) => styleRow(row, shown, style)), {
              head: shown.map((c) => style.bold(c.header)),
              colWidths: pinned.fit.widths,
              colAligns: shown.map((c) => c.align),
            })
          : drawLaterPage(Table, rows, shown, pinned, style);
    }
    count += page.length;
    await writeOut(opts.out, chunk);
  }
  return count;
}

/**
 * The keys of the columns a terminal shows for a list whose first page is `page`, should the
 * columns `asText` hold text (a name in place of an id), each taken at the width a text column is
 * cut to before any is dropped: what is worth reading names for (named-columns.ts). Rows that
 * would not fit as a table at all go as blocks, every column in them.
 */
export async function keysShown(page: unknown[], opts: RenderOptions, asText: ReadonlySet<string>): Promise<Set<string>> {
  const Table = await loadTable();
  const columns = chooseColumns(page[0], opts).map((c) => (asText.has(c.key) ? { ...c, kind: 'text' as const, cuttable: true, optional: false } : c));
  const placeholder = 'x'.repeat(COMFORT_WIDTH);
  const cells = page.map((item) => columns.map((c) => (asText.has(c.key) ? placeholder : cellText(getPath(item, c.key), c.kind, item, c.key))));
  const fit = fitColumns(measure(Table, [columns.map((c) => c.header), ...cells]), columns, terminalColumns(opts.out));
  return new Set((fit ? fit.shown.map((i) => columns[i] as TableColumn) : columns).map((c) => c.key));
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
 * A single object as a field/value table: nested objects flattened to dotted keys, arrays of
 * objects shown as `[3 items]` unless --fields selects into them, arrays of plain values joined,
 * money/dates formatted, statuses coloured; under it, the zone of the times it shows.
 */
export async function renderObjectTable(obj: unknown, opts: RenderOptions): Promise<void> {
  if (!isPlainObject(obj)) {
    await writeOut(opts.out, `${sanitize(obj === null || obj === undefined ? '' : String(obj))}\n`);
    return;
  }
  const [Table, style] = await Promise.all([loadTable(), loadStyle(opts.color)]);
  const rows = objectRows(obj, opts.fields).map(([key, value]) => {
    const kind = kindForKey(key);
    // A list of objects (a history) is only counted; a list of plain values (a plan's payment
    // methods) is short and said in full, as in a list's cells.
    const counted = Array.isArray(value) && !opts.fields && !value.every(isScalar);
    const text = counted ? countItems(value.length) : cellText(value, kind, obj, key);
    return { key: sanitize(key), text, kind };
  });
  if (rows.length === 0) return;
  await writeOut(opts.out, `${drawPairs(Table, style, rows, terminalColumns(opts.out))}${showsTimes(rows) ? await zoneLine(style) : ''}`);
}

/**
 * Text longer than `room` columns, laid out on lines between its words (a sentence, an address, a
 * rule in words), so the terminal never breaks it mid-word; text without spaces (an id, a URL, a
 * barcode) is left whole, for the column's own hard wrap to break at its edge.
 */
function betweenWords(text: string, room: number): string {
  if (text.length <= room || !text.includes(' ') || text.includes('\n')) return text;
  // An amount stays whole: "R$ 50,00" is one word here.
  const words = text.replace(/(R\$|[A-Z]{3}) (?=-?\d)/g, '$1\u00a0').split(' ').filter((word) => word !== '');
  return wrapWords(words, room, '', '').join('\n').replace(/\u00a0/g, ' ');
}

export interface Pair {
  key: string;
  /** Ready to print: formatted and sanitised (cellText). */
  text: string;
  kind: Kind;
  /** Shown dim after the text, for reference (the id of a record shown by its name); sanitised too. */
  aside?: string;
}

/**
 * Key/value lines. Keys are cut beyond MAX_KEY_WIDTH; values are never cut. On a terminal of
 * `room` columns, a value longer than the room beside its key (a URL, a barcode, an address)
 * wraps within its column, so the key column stays clear instead of the terminal folding the
 * line back to its first column.
 */
export function drawPairs(Table: TableConstructor, style: Style, rows: Pair[], room: number | undefined): string {
  if (rows.length === 0) return '';
  const keyWidth = Math.min(MAX_KEY_WIDTH, measure(Table, rows.map((r) => [r.key]))[0] as number);
  const valueRoom = room === undefined ? undefined : room - keyWidth - GAP.length;
  // The id beside a name goes under it when the two do not fit on a line: an id is never broken.
  const beside = (r: Pair & { aside: string }) => (valueRoom === undefined || (measure(Table, [[`${r.text}${GAP}${r.aside}`]])[0] as number) <= valueRoom ? GAP : '\n');
  const values = rows.map((r) => {
    const text = valueRoom === undefined ? r.text : betweenWords(r.text, valueRoom);
    const styled = styleCell(text, r.kind, style);
    if (!r.aside) return { plain: text, styled };
    const between = beside(r as Pair & { aside: string });
    return { plain: `${text}${between}${r.aside}`, styled: `${styled}${between}${style.dim(r.aside)}` };
  });
  const cells = rows.map((r, i) => [style.bold(r.key), (values[i] as { styled: string }).styled]);
  const valueWidth = measure(Table, values.map((v) => [v.plain]))[0] as number;
  const wrap = valueRoom !== undefined && valueRoom >= MIN_WIDTH && valueWidth > valueRoom;
  return drawLines(Table, cells, wrap ? { colWidths: [keyWidth, valueRoom], wrapColumn: 1 } : { colWidths: [keyWidth, null] });
}
