// `--group-by`: a list summed per day, week, month, seller, payment type, card brand or status, one
// row per group with its count and its sums (gross, fees, refunds and net; a balance's history:
// credits, each kind of debit, net and the closing balance), summed in integer cents from the
// service's decimal strings over every page (memory holds the groups, never the rows). Days,
// weeks and months are those of the zone payctl shows times in (src/time/zone.ts); a list whose
// date is itself a calendar date (a transfer's date, an expected date) groups by that date as
// written. On a table each group gets a bar of its net against the largest.
import { UsageError } from '../errors.js';
import { didYouMean } from '../validate/closest.js';
import type { Column } from './render-options.js';
import { formatMoney } from './format.js';
import { formatCount } from '../platform/plural.js';
import { decimalCents } from './totals.js';
import { writtenDay } from '../validate/date.js';

export const DIMENSIONS = ['day', 'week', 'month', 'seller', 'payment-type', 'card-brand', 'status'] as const;

/** The group of the items that have no value for the dimension (no seller, no card brand). */
const NO_GROUP = '(none)';
export type Dimension = (typeof DIMENSIONS)[number];

/** A sum a group has: its key in a row (JSON, CSV) and its header on a table. */
export interface SumColumn {
  key: string;
  header: string;
  /**
   * Shown on a table only when some group has any (the fees of a ledger that books them apart);
   * otherwise, when `absent` is given, it is said under the table instead.
   */
  whenAny?: boolean;
  absent?: string;
}

/** A group's sums, in integer cents, by SumColumn key; `net` is among them (the bars measure it). */
export type GroupSums = Record<string, number>;

/** What most lists sum: gross, fees, refunds and net. */
export const GROSS_FEES_REFUNDS_NET: readonly SumColumn[] = [
  { key: 'gross', header: 'GROSS' },
  { key: 'fees', header: 'FEES' },
  { key: 'refunds', header: 'REFUNDS' },
  { key: 'net', header: 'NET' },
];

/** How a resource's items are summed and grouped. */
export interface SummarySpec {
  /** The item's date: an instant (created_at) or a calendar date (transfer_date, expected_on). */
  time: { key: string; day: boolean };
  /** The dimensions besides time, where each is in the item. */
  fields: Partial<Record<Exclude<Dimension, 'day' | 'week' | 'month'>, string>>;
  /** What a group sums, in order (default GROSS_FEES_REFUNDS_NET). */
  columns?: readonly SumColumn[];
  sums(item: Record<string, unknown>): GroupSums;
  /**
   * Items that are entries of accounts' balances: each says its account and the balance before
   * it, so that a group by time ends with the balance its accounts closed at (`closing_balance`).
   */
  balance?: { account(item: Record<string, unknown>): string | undefined; before(item: Record<string, unknown>): number | undefined };
}

export interface GroupRow {
  group: string;
  count: number;
  /** Each sum as a decimal string; `closing_balance` null when the entries did not say it. */
  [sum: string]: string | number | null;
}

/** The sums a spec's groups have. */
const columnsOf = (spec: SummarySpec) => spec.columns ?? GROSS_FEES_REFUNDS_NET;
const isTime = (by: Dimension) => by === 'day' || by === 'week' || by === 'month';
/** A group has a closing balance when its items are balance entries and it is a span of time. */
const closes = (spec: SummarySpec, by: Dimension) => spec.balance !== undefined && isTime(by);

/** --group-by, checked against what this list can be grouped by. */
export function parseGroupBy(value: unknown, spec: SummarySpec, noun: string): Dimension | undefined {
  if (value === undefined) return undefined;
  const allowed = DIMENSIONS.filter((d) => d === 'day' || d === 'week' || d === 'month' || d in spec.fields);
  const given = String(value).trim().toLowerCase();
  if (!(allowed as readonly string[]).includes(given)) {
    throw new UsageError(`--group-by: "${String(value)}" is not a grouping of ${noun}${didYouMean(given, allowed)}; use ${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}`);
  }
  return given as Dimension;
}

const two = (n: number) => String(n).padStart(2, '0');

/** The local calendar day of the item's date (a day field is its own day, as written). */
function dayOf(value: unknown, isDay: boolean): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (isDay || /^\d{4}-\d{2}-\d{2}$/.test(value)) return writtenDay(value);
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return undefined;
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}`;
}

/** ISO 8601 week of a calendar day: `2026-W48` (weeks start on Monday; week 1 holds the year's first Thursday). */
export function isoWeek(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  const weekday = date.getUTCDay() || 7;
  date.setUTCDate(date.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(date.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((date.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${date.getUTCFullYear()}-W${two(week)}`;
}

function readPath(item: Record<string, unknown>, path: string): unknown {
  let value: unknown = item;
  for (const part of path.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  return value;
}

export class Summary {
  private readonly groups = new Map<string, { count: number; sums: GroupSums }>();
  /**
   * Each account's balance before its earliest entry read, and that entry's time: with the groups'
   * nets in time order, what the accounts held at each group's end. Entries of the same instant
   * are earliest first in an ascending list, last first in a descending one (`descending`).
   */
  private readonly openings = new Map<string, { ms: number; cents: number }>();
  private balanceUnknown = false;

  constructor(
    private readonly spec: SummarySpec,
    private readonly by: Dimension,
    private readonly descending = false,
  ) {}

  private keyOf(item: Record<string, unknown>): string {
    if (this.by === 'day' || this.by === 'week' || this.by === 'month') {
      const day = dayOf(readPath(item, this.spec.time.key), this.spec.time.day);
      if (day === undefined) return '(no date)';
      return this.by === 'day' ? day : this.by === 'month' ? day.slice(0, 7) : isoWeek(day);
    }
    const value = readPath(item, this.spec.fields[this.by] as string);
    return typeof value === 'string' && value !== '' ? value : NO_GROUP;
  }

  add(item: unknown): void {
    if (item === null || typeof item !== 'object') return;
    const record = item as Record<string, unknown>;
    const key = this.keyOf(record);
    const sums = this.spec.sums(record);
    const group = this.groups.get(key) ?? { count: 0, sums: {} };
    group.count += 1;
    for (const [name, cents] of Object.entries(sums)) group.sums[name] = (group.sums[name] ?? 0) + cents;
    this.groups.set(key, group);
    if (closes(this.spec, this.by)) this.noteOpening(record);
  }

  private noteOpening(item: Record<string, unknown>): void {
    const { balance } = this.spec;
    const account = balance?.account(item);
    const before = balance?.before(item);
    const ms = Date.parse(String(readPath(item, this.spec.time.key)));
    if (account === undefined || before === undefined || Number.isNaN(ms)) {
      this.balanceUnknown = true;
      return;
    }
    const kept = this.openings.get(account);
    if (!kept || ms < kept.ms || (ms === kept.ms && this.descending)) this.openings.set(account, { ms, cents: before });
  }

  /** The groups: in time order for day, week and month; else largest net first. */
  rows(): GroupRow[] {
    const money = (cents: number) => `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${two(Math.abs(cents) % 100)}`;
    const entries = [...this.groups];
    const byTime = isTime(this.by);
    const net = (g: { sums: GroupSums }) => g.sums.net ?? 0;
    entries.sort(([a, x], [b, y]) => (byTime ? (a < b ? -1 : a > b ? 1 : 0) : net(y) - net(x) || (a < b ? -1 : 1)));
    // What the accounts held before the first group, then after each: the opening plus the nets so far.
    let held = [...this.openings.values()].reduce((total, o) => total + o.cents, 0);
    return entries.map(([group, g]) => {
      const row: GroupRow = { group, count: g.count };
      for (const column of columnsOf(this.spec)) row[column.key] = money(g.sums[column.key] ?? 0);
      if (closes(this.spec, this.by)) {
        held += net(g);
        row.closing_balance = this.balanceUnknown ? null : money(held);
      }
      return row;
    });
  }
}

/** Eighths of a block, for bars that grow by less than a character. */
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
export const BAR_WIDTH = 20;

/** The narrowest bar column worth drawing. */
const MIN_BAR_WIDTH = 4;

/** A bar of `value` against `largest`, up to `width` characters; money out starts with −. */
export function bar(value: number, largest: number, width = BAR_WIDTH): string {
  if (largest <= 0 || value === 0) return '';
  const eighths = Math.max(1, Math.round((Math.abs(value) / largest) * width * 8));
  const text = '█'.repeat(Math.floor(eighths / 8)) + (EIGHTHS[eighths % 8] as string);
  return value < 0 ? `−${text}` : text;
}

/**
 * The table's rows with their bars (display only: JSON and CSV have the numbers), as wide as the
 * terminal leaves room for beside the other columns (`room`: its width; at most BAR_WIDTH), and
 * none when that is less than MIN_BAR_WIDTH.
 */
export function withBars(rows: GroupRow[], spec: SummarySpec, by: Dimension, room: number | undefined): Array<Record<string, string | null>> {
  const cents = (s: unknown) => decimalCents(s) ?? 0;
  const largest = Math.max(0, ...rows.map((r) => Math.abs(cents(r.net))));
  const columns = summaryColumns(spec, by, rows, true).filter((column) => column.key !== 'bar');
  const widthOf = (column: Column, row: GroupRow) => {
    const value = row[column.key as keyof GroupRow];
    return (column.kind === 'money' ? formatMoney(String(value)) : typeof value === 'number' ? formatCount(value) : String(value)).length;
  };
  const others = columns.reduce((total, column) => total + Math.max(column.header.length, ...rows.map((row) => widthOf(column, row))) + 2, 0);
  const width = Math.min(BAR_WIDTH, room === undefined ? BAR_WIDTH : room - others - 1);
  return rows.map((r) => ({ ...r, count: formatCount(r.count), bar: width < MIN_BAR_WIDTH ? '' : bar(cents(r.net), largest, width) }) as Record<string, string | null>);
}

/** Whether any group has something in a sum. */
const anyIn = (rows: GroupRow[], key: string) => rows.some((row) => (decimalCents(row[key]) ?? 0) !== 0);

/**
 * The columns of the groups: JSON and CSV always the same ones; a table leaves out a sum no group
 * has that shows only when one does (whenAny), and adds the bars. COUNT gives way first on a
 * narrow terminal, after the bars.
 */
export function summaryColumns(spec: SummarySpec, by: Dimension, rows: GroupRow[], table: boolean): Column[] {
  const sums = columnsOf(spec).filter((column) => !table || !column.whenAny || anyIn(rows, column.key));
  const columns: Column[] = [
    // What each row is of: never dropped to fit a terminal (a row of sums without its day or
    // status says nothing), COUNT and the bar give way first. A seller's group is its id: on a
    // terminal, its name (named-columns.ts), which may be cut like any name.
    { key: 'group', header: by.toUpperCase().replace('-', ' '), ...(by === 'seller' ? { names: (row) => (row.group === NO_GROUP ? undefined : 'seller') } : { kind: 'id' }) },
    { key: 'count', header: 'COUNT', optional: true },
    ...sums.map((column): Column => ({ key: column.key, header: column.header, kind: 'money' })),
  ];
  if (closes(spec, by)) columns.push({ key: 'closing_balance', header: 'CLOSING', kind: 'money' });
  if (table) columns.push({ key: 'bar', header: '', kind: 'bar', optional: true });
  return columns;
}

/** What a table of the groups says under it of the sums it leaves out (`absent`). */
export function summaryNotes(spec: SummarySpec, rows: GroupRow[]): string[] {
  return columnsOf(spec).flatMap((column) => (column.whenAny && column.absent && !anyIn(rows, column.key) ? [column.absent] : []));
}
