// What the first reading of a bulk file keeps of each row, so that a file of any size is checked
// whole before anything is sent without being held in memory: its transaction id as 16 bytes,
// which of that transaction's rows it is, and a fingerprint of what it asks, about 32 bytes a row
// in all (a million rows: 32 MB), whatever the lines hold. The rows themselves are read again,
// one at a time, as the batch runs; the fingerprint tells a row changed in between.
import { randomBytes } from 'node:crypto';
import type { RefundRow } from './input.js';

const ID_BYTES = 16;
/**
 * The most rows one batch takes: what the first reading keeps stays under about 50 MB. A larger
 * refund is split into files run one after another (or at once: each sale is refunded once).
 */
export const MAX_BATCH_ROWS = 1_000_000;
const EMPTY = 0;

/** Growable typed storage: doubles when full. */
function grown<T extends Uint32Array | Uint8Array>(array: T, needed: number, make: (size: number) => T): T {
  if (needed <= array.length) return array;
  let size = array.length;
  while (size < needed) size *= 2;
  const bigger = make(size);
  bigger.set(array);
  return bigger;
}

export class RowIndex {
  /** Row n's id at n * 16 (hex decoded); zeros for a row that cannot be used. */
  private ids = new Uint8Array(1024 * ID_BYTES);
  /** Row n is the k-th row of its transaction (0 for a row that cannot be used). */
  private occurrences = new Uint32Array(1024);
  private fingerprints = new Uint32Array(1024);
  /** Open addressing over the rows: slot → 1 + the first row of an id; EMPTY when free. */
  private slots = new Uint32Array(2048);
  /** Per first row of an id: how many rows it has. */
  private counts = new Uint32Array(1024);
  private used = 0;
  /** Keyed per run: a file crafted to collide cannot make the table slow. */
  private readonly seed = randomBytes(4).readUInt32LE(0);
  private readonly repeats: Array<{ first: number; row: number; id: string }> = [];
  private repeatCount = 0;
  rows = 0;

  /** Notes the next row (rows come in order, numbered from 1). */
  add(row: RefundRow): void {
    const at = row.row - 1;
    this.rows = row.row;
    this.ids = grown(this.ids, (at + 1) * ID_BYTES, (n) => new Uint8Array(n));
    this.occurrences = grown(this.occurrences, at + 1, (n) => new Uint32Array(n));
    this.fingerprints = grown(this.fingerprints, at + 1, (n) => new Uint32Array(n));
    this.counts = grown(this.counts, at + 1, (n) => new Uint32Array(n));
    this.fingerprints[at] = fingerprintOf(row);
    if (row.error || !row.id) return;
    this.ids.set(Buffer.from(row.id, 'hex'), at * ID_BYTES);
    const first = this.firstRowOf(at);
    if (first === undefined) {
      this.insert(at);
      this.counts[at] = 1;
      this.occurrences[at] = 1;
      return;
    }
    const count = (this.counts[first] as number) + 1;
    this.counts[first] = count;
    this.occurrences[at] = count;
    this.repeatCount += 1;
    if (this.repeats.length < 3) this.repeats.push({ first: first + 1, row: row.row, id: row.id });
  }

  /** Which of its transaction's rows row n is (1 for the first). */
  occurrenceOf(row: number): number {
    return this.occurrences[row - 1] ?? 0;
  }

  /** Whether row n asks what it asked when the file was first read. */
  same(row: RefundRow): boolean {
    return row.row <= this.rows && this.fingerprints[row.row - 1] === fingerprintOf(row);
  }

  /** The first repeated transactions, for the message, and how many repeats there are in all. */
  repeated(): { shown: Array<{ first: number; row: number; id: string }>; count: number } {
    return { shown: this.repeats, count: this.repeatCount };
  }

  /** Each transaction once, with how many rows it has, in chunks of `size`. */
  *transactions(size: number): Generator<Array<{ id: string; rows: number }>> {
    let chunk: Array<{ id: string; rows: number }> = [];
    for (let at = 0; at < this.rows; at += 1) {
      if (this.occurrences[at] !== 1) continue;
      chunk.push({ id: this.idAt(at), rows: this.counts[at] as number });
      if (chunk.length === size) {
        yield chunk;
        chunk = [];
      }
    }
    if (chunk.length > 0) yield chunk;
  }

  private idAt(at: number): string {
    return Buffer.from(this.ids.buffer, this.ids.byteOffset + at * ID_BYTES, ID_BYTES).toString('hex');
  }

  private hashAt(at: number): number {
    let hash = 0x811c9dc5 ^ this.seed;
    for (let i = at * ID_BYTES; i < (at + 1) * ID_BYTES; i += 1) hash = Math.imul(hash ^ (this.ids[i] as number), 0x01000193);
    return hash >>> 0;
  }

  private sameId(a: number, b: number): boolean {
    for (let i = 0; i < ID_BYTES; i += 1) if (this.ids[a * ID_BYTES + i] !== this.ids[b * ID_BYTES + i]) return false;
    return true;
  }

  private firstRowOf(at: number): number | undefined {
    const mask = this.slots.length - 1;
    for (let slot = this.hashAt(at) & mask; ; slot = (slot + 1) & mask) {
      const held = this.slots[slot] as number;
      if (held === EMPTY) return undefined;
      if (this.sameId(held - 1, at)) return held - 1;
    }
  }

  private insert(at: number): void {
    // Kept at most half full, so that probes stay short.
    if ((this.used + 1) * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    this.place(at);
    this.used += 1;
  }

  private place(at: number): void {
    const mask = this.slots.length - 1;
    let slot = this.hashAt(at) & mask;
    while (this.slots[slot] !== EMPTY) slot = (slot + 1) & mask;
    this.slots[slot] = at + 1;
  }

  private rehash(size: number): void {
    const old = this.slots;
    this.slots = new Uint32Array(size);
    for (const held of old) if (held !== EMPTY) this.place(held - 1);
  }
}

/** What a row asks, in 32 bits (FNV-1a): its id, its amount (or all that remains), or its error. */
function fingerprintOf(row: RefundRow): number {
  const text = `${row.id ?? ''}|${row.cents ?? 'all'}|${row.error ?? ''}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
