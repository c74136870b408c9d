// The line under a table of money: how many items, and the sums that mean something for them
// (`12 transactions  gross R$ 1.234,56  fees R$ 36,99  net R$ 1.197,57`). Summed in integer
// cents from the API's own decimal strings, over every page, so a streamed list totals exactly.
// Drawn by cli-table3 in the list's own borderless layout (one row, two spaces between the parts),
// imported only when the line is drawn: the commands import this module for its TotalSpec helpers.
import { formatMoney } from './format.js';
import { counted, formatCount, singular } from '../platform/plural.js';
import { drawLines, loadTable, terminalColumns } from './table.js';

export interface TotalSpec {
  label: string;
  /** The item's contribution, in cents (undefined: nothing). */
  cents(item: Record<string, unknown>): number | undefined;
}

/** Cents of an API decimal string ("10.50", "-3.2"); undefined for anything else. */
export function decimalCents(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!match) return undefined;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '0').padEnd(2, '0'));
  return match[1] === '-' ? -cents : cents;
}

export class Totals {
  private count = 0;
  private readonly sums: number[];

  constructor(
    private readonly noun: string,
    private readonly specs: TotalSpec[],
  ) {
    this.sums = specs.map(() => 0);
  }

  add(item: unknown): void {
    this.count += 1;
    if (typeof item !== 'object' || item === null) return;
    this.specs.forEach((spec, i) => {
      this.sums[i] = (this.sums[i] ?? 0) + (spec.cents(item as Record<string, unknown>) ?? 0);
    });
  }

  /** The line; on a terminal narrower than it, one part a line instead. */
  async line(out: NodeJS.WritableStream, partOf?: { total: number | undefined; hint: string }): Promise<string> {
    const room = terminalColumns(out);
    const money = (cents: number) => formatMoney(`${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`);
    const parts = this.specs.map((spec, i) => `${spec.label} ${money(this.sums[i] ?? 0)}`);
    const Table = await loadTable();
    const all = counted(this.count, singular(this.noun), this.noun);
    // Part of a longer list: `20 of 20.005 transactions (--all for every one)`; the sums are of those shown.
    const items = partOf === undefined ? all : `${partOf.total === undefined ? all : `${formatCount(this.count)} of ${counted(partOf.total, singular(this.noun), this.noun)}`} (${partOf.hint})`;
    const line = drawLines(Table, [[items, ...parts]]).replace(/\n$/, '');
    return room !== undefined && line.length > room ? drawLines(Table, [items, ...parts].map((part) => [part])).replace(/\n$/, '') : line;
  }
}

/** gross, fees and net (gross − fees) from two decimal-string fields. */
export function grossFeesNet(grossKey: string, feesKey: string): TotalSpec[] {
  const gross = (item: Record<string, unknown>) => decimalCents(item[grossKey]);
  const fees = (item: Record<string, unknown>) => decimalCents(item[feesKey]);
  return [
    { label: 'gross', cents: gross },
    { label: 'fees', cents: fees },
    { label: 'net', cents: (item) => (gross(item) ?? 0) - (fees(item) ?? 0) },
  ];
}

/** gross (net + fees), fees and net from two decimal-string fields, for items whose amount is already net of their fees (a transfer). */
export function netOfFees(netKey: string, feesKey: string): TotalSpec[] {
  const net = (item: Record<string, unknown>) => decimalCents(item[netKey]);
  const fees = (item: Record<string, unknown>) => decimalCents(item[feesKey]);
  return [
    { label: 'gross', cents: (item) => (net(item) ?? 0) + (fees(item) ?? 0) },
    { label: 'fees', cents: fees },
    { label: 'net', cents: net },
  ];
}

/** gross, fees (gross − net) and net from two decimal-string fields, for items that carry net rather than fees. */
export function grossNetWithFees(grossKey: string, netKey: string): TotalSpec[] {
  const gross = (item: Record<string, unknown>) => decimalCents(item[grossKey]);
  const net = (item: Record<string, unknown>) => decimalCents(item[netKey]);
  return [
    { label: 'gross', cents: gross },
    { label: 'fees', cents: (item) => (gross(item) ?? 0) - (net(item) ?? 0) },
    { label: 'net', cents: net },
  ];
}
