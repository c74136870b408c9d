// The records a run has read in its lookback window, with their fingerprints: what the next run
// compares what it reads again with. Held compactly, since a window may hold hundreds of thousands
// of records: measured on 100,000 transactions, a window kept as a Map of [created_at, time,
// fingerprint] arrays cost about 1.1 KB of peak memory a record, and 0.65 KB as kept here.
import { createHash } from 'node:crypto';

/** A record's fingerprint: 48 bits of the SHA-1 of its JSON, a whole number a double holds exactly. */
export function fingerprint(json: string): number {
  return createHash('sha1').update(json).digest().readUIntBE(0, 6);
}

/** As the state file writes a fingerprint, and back. */
export const printText = (print: number): string => print.toString(36);
export const printOf = (text: string): number => Number.parseInt(text, 36);

export class Window {
  private readonly prints = new Map<string, number>();
  // Oldest first, as the list is read: ids and creation times side by side (times stay unboxed).
  private ids: string[] = [];
  private times: number[] = [];
  private head = 0;

  has(id: string): boolean {
    return this.prints.has(id);
  }

  add(id: string, createdMs: number, print: number): void {
    this.prints.set(id, print);
    this.ids.push(id);
    this.times.push(createdMs);
  }

  /** Drops the records created before `bound`, and any without a creation time (no date filter reads those again). */
  forgetOlderThan(bound: number): void {
    while (this.head < this.ids.length && !((this.times[this.head] as number) >= bound)) {
      this.prints.delete(this.ids[this.head] as string);
      this.head += 1;
    }
    // The dropped part of the arrays is given back once it is most of them.
    if (this.head > 1024 && this.head * 2 > this.ids.length) {
      this.ids = this.ids.slice(this.head);
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
  }

  /** [id, created_at, fingerprint] of each record, oldest first, for the state file. */
  entries(): Array<[string, string, string]> {
    const entries: Array<[string, string, string]> = [];
    for (let i = this.head; i < this.ids.length; i++) {
      const time = this.times[i] as number;
      const id = this.ids[i] as string;
      entries.push([id, Number.isFinite(time) ? new Date(time).toISOString() : '', printText(this.prints.get(id) as number)]);
    }
    return entries;
  }
}
