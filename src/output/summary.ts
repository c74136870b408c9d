// `--group-by`: a list summed per day, week, month, seller, payment type, card brand or status, one
// row per group with its count, gross, fees, refunds and net, summed in integer cents from the
// service's decimal strings over every page (memory holds the groups, never the rows). Days,
// weeks and months are those of the zone payctl shows times in (src/time/zone.ts); a list whose
// date is itself a day (an expected date) groups by that day. On a table each group gets a bar of
// its net against the largest.
import { UsageError } from '../errors.js';
import { didYouMean } from '../validate/closest.js';
import type { Column } from './render-options.js';
import { formatMoney } from './format.js';
import { formatCount } from '../platform/plural.js';
import { decimalCents } from './totals.js';
import { writtenDay } from '../validate/date.js';

export const DIMENSIONS = ['day', 'week', 'month', 'seller', 'payment-type', 'card-brand', 'status'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export interface GroupSums {
  gross: number;
  fees: number;
  refunds: number;
  net: number;
}

/** How a resource's items are summed and grouped. */
export interface SummarySpec {
  /** The item's date: an instant (created_at) or a day (expected_on). */
  time: { key: string; day: boolean };
  /** The dimensions besides time, where each is in the item. */
  fields: Partial<Record<Exclude<Dimension, 'day' | 'week' | 'month'>, string>>;
  sums(item: Record<string, unknown>): GroupSums;
}

export interface GroupRow {
  group: string;
  count: number;
  gross: string;
  fees: string;
  refunds: string;
  net: string;
}

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
  private readonly groups = new Map<string, GroupSums & { count: number }>();

  constructor(
    private readonly spec: SummarySpec,
    private readonly by: Dimension,
  ) {}

  private keyOf(item: Record<string, unknown>): string {
    if (this.by === 'day' || this.by === 'week' || this.by === 'month') {
      const day = dayOf(readPath(item, this.spec.time.key), this.spec.time.day);
      if (day === undefined) return '(no date)';
      return this.by === 'day' ? day : this.by === 'month' ? day.slice(0, 7) : isoWeek(day);
    }
    const value = readPath(item, this.spec.fields[this.by] as string);
    return typeof value === 'string' && value !== '' ? value : '(none)';
  }

  add(item: unknown): void {
    if (item === null || typeof item !== 'object') return;
    const record = item as Record<string, unknown>;
    const key = this.keyOf(record);
    const sums = this.spec.sums(record);
    const group = this.groups.get(key) ?? { count: 0, gross: 0, fees: 0, refunds: 0, net: 0 };
    group.count += 1;
    group.gross += sums.gross;
    group.fees += sums.fees;
    group.refunds += sums.refunds;
    group.net += sums.net;
    this.groups.set(key, group);
  }

  /** The groups: in time order for day, week and month; else largest net first. */
  rows(): GroupRow[] {
    const money = (cents: number) => `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${two(Math.abs(cents) % 100)}`;
    const entries = [...this.groups];
    const byTime = this.by === 'day' || this.by === 'week' || this.by === 'month';
    entries.sort(([a, x], [b, y]) => (byTime ? (a < b ? -1 : a > b ? 1 : 0) : y.net - x.net || (a < b ? -1 : 1)));
    return entries.map(([group, g]) => ({ group, count: g.count, gross: money(g.gross), fees: money(g.fees), refunds: money(g.refunds), net: money(g.net) }));
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
export function withBars(rows: GroupRow[], by: Dimension, room: number | undefined): Array<Omit<GroupRow, 'count'> & { count: string; bar: string }> {
  const cents = (s: string) => decimalCents(s) ?? 0;
  const largest = Math.max(0, ...rows.map((r) => Math.abs(cents(r.net))));
  const columns = summaryColumns(by, false);
  const widthOf = (column: Column, row: GroupRow) => {
    const value = row[column.key as keyof GroupRow];
    return (column.kind === 'money' ? formatMoney(String(value)) : typeof value === 'number' ? formatCount(value) : String(value)).length;
  };
  const others = columns.reduce((total, column) => total + Math.max(column.header.length, ...rows.map((row) => widthOf(column, row))) + 2, 0);
  const width = Math.min(BAR_WIDTH, room === undefined ? BAR_WIDTH : room - others - 1);
  return rows.map((r) => ({ ...r, count: formatCount(r.count), bar: width < MIN_BAR_WIDTH ? '' : bar(cents(r.net), largest, width) }));
}

export function summaryColumns(by: Dimension, table: boolean): Column[] {
  const columns: Column[] = [
    { key: 'group', header: by.toUpperCase().replace('-', ' ') },
    { key: 'count', header: 'COUNT' },
    { key: 'gross', header: 'GROSS', kind: 'money' },
    { key: 'fees', header: 'FEES', kind: 'money' },
    { key: 'refunds', header: 'REFUNDS', kind: 'money' },
    { key: 'net', header: 'NET', kind: 'money' },
  ];
  if (table) columns.push({ key: 'bar', header: '', kind: 'bar', optional: true });
  return columns;
}
