// The records a run has read in its lookback window, with their fingerprints: what the next run
// compares what it reads again with. A window may hold hundreds of thousands of records, so it is
// kept in typed arrays, not objects: measured on 100,000 transactions with the whole store as the
// window, a Map of [created_at, time, fingerprint] arrays cost about 1.1 KB of peak memory a
// record and a Map of numbers 0.65 KB, since V8 lets its heap grow with what it holds; here a
// record is 81 bytes outside the heap.
import { createHash } from 'node:crypto';

/** A record's fingerprint: 48 bits of the SHA-1 of its JSON, a whole number a double holds exactly. */
export function fingerprint(json: string): number {
  return createHash('sha1').update(json).digest().readUIntBE(0, 6);
}

/** As the state file writes a fingerprint, and back. */
export const printText = (print: number): string => print.toString(36);
export const printOf = (text: string): number => Number.parseInt(text, 36);

/** Room for an id: the provider's are 32 characters; a longer one is not kept (its record is written whenever read). */
const ID_BYTES = 64;

export class Window {
  // Oldest first, as the list is read; records head … tail − 1 are the window.
  private ids = Buffer.alloc(ID_BYTES * 1024);
  private idLengths = new Uint8Array(1024);
  private times = new Float64Array(1024);
  private prints = new Float64Array(1024);
  private head = 0;
  private tail = 0;

  /** Keeps a record; false for an id too long to keep. */
  add(id: string, createdMs: number, print: number): boolean {
    if (Buffer.byteLength(id) > ID_BYTES) return false;
    if (this.tail === this.times.length) this.makeRoom();
    this.idLengths[this.tail] = this.ids.write(id, this.tail * ID_BYTES);
    this.times[this.tail] = createdMs;
    this.prints[this.tail] = print;
    this.tail += 1;
    return true;
  }

  /** Drops the records created before `bound`, and any without a creation time (no date filter reads those again). */
  forgetOlderThan(bound: number): void {
    while (this.head < this.tail && !((this.times[this.head] as number) >= bound)) this.head += 1;
  }

  /** Moves the window to the start of its arrays when most of them is dropped records; else doubles them. */
  private makeRoom(): void {
    if (this.head * 2 >= this.tail) {
      this.ids.copyWithin(0, this.head * ID_BYTES, this.tail * ID_BYTES);
      this.idLengths.copyWithin(0, this.head, this.tail);
      this.times.copyWithin(0, this.head, this.tail);
      this.prints.copyWithin(0, this.head, this.tail);
      this.tail -= this.head;
      this.head = 0;
      if (this.tail < this.times.length) return;
    }
    const size = this.times.length * 2;
    const grown = <T extends Buffer | Uint8Array | Float64Array>(old: T, make: (n: number) => T, n: number): T => {
      const next = make(n);
      next.set(old);
      return next;
    };
    this.ids = grown(this.ids, (n) => Buffer.alloc(n), size * ID_BYTES);
    this.idLengths = grown(this.idLengths, (n) => new Uint8Array(n), size);
    this.times = grown(this.times, (n) => new Float64Array(n), size);
    this.prints = grown(this.prints, (n) => new Float64Array(n), size);
  }

  /** [id, created_at, fingerprint] of each record, oldest first, for the state file. */
  *entries(): Generator<[string, string, string]> {
    for (let i = this.head; i < this.tail; i++) {
      const time = this.times[i] as number;
      const id = this.ids.toString('utf8', i * ID_BYTES, i * ID_BYTES + (this.idLengths[i] as number));
      yield [id, Number.isFinite(time) ? new Date(time).toISOString() : '', printText(this.prints[i] as number)];
    }
  }
}
