// The records a run has read in its lookback window, with their fingerprints: what the next run
// compares what it reads again with. A window may hold hundreds of thousands of records, so it is
// kept in typed arrays, not objects: measured on 100,000 transactions with the whole store as the
// window, a Map of [created_at, time, fingerprint] arrays cost about 1.1 KB of peak memory a
// record and a Map of numbers 0.65 KB, since V8 lets its heap grow with what it holds; here a
// record with one of the provider's ids is 33 bytes outside the heap (it was 81 with the id as
// text in a 64-byte slot: 1,000,000 transactions exported 1.19× the memory of 100,000, mostly
// for the 90,000 records of a 3-day window, held twice while the arrays grow).
import { createHash } from 'node:crypto';

/** A record's fingerprint: 48 bits of the SHA-1 of its JSON, a whole number a double holds exactly. */
export function fingerprint(json: string): number {
  return createHash('sha1').update(json).digest().readUIntBE(0, 6);
}

/** As the state file writes a fingerprint, and back. */
export const printText = (print: number): string => print.toString(36);
export const printOf = (text: string): number => Number.parseInt(text, 36);

/**
 * Room for an id. The provider's are 32 hex characters, kept as the 16 bytes they spell; any other
 * id of up to ID_BYTES bytes is kept as its text, in a slot of its own kind (see `add`). A longer
 * one is not kept (its record is written whenever read).
 */
const ID_BYTES = 64;
const HEX_ID = /^[0-9a-f]{32}$/;
/** An idKinds value: the record's id is 32 hex characters, held as 16 bytes in `ids` (else, 0: in `texts`). */
const PACKED = 255;

export class Window {
  // Oldest first, as the list is read; records head … tail − 1 are the window. A record's id is
  // in `ids` (16 bytes a record) when it is 32 hex characters, the provider's, else in `texts`.
  private ids = Buffer.alloc(16 * 1024);
  private readonly texts = new Map<number, string>();
  private idKinds = new Uint8Array(1024);
  private times = new Float64Array(1024);
  private prints = new Float64Array(1024);
  private head = 0;
  private tail = 0;

  /** Keeps a record; false for an id too long to keep. */
  add(id: string, createdMs: number, print: number): boolean {
    if (Buffer.byteLength(id) > ID_BYTES) return false;
    if (this.tail === this.times.length) this.makeRoom();
    if (HEX_ID.test(id)) {
      this.ids.write(id, this.tail * 16, 'hex');
      this.idKinds[this.tail] = PACKED;
    } else {
      this.texts.set(this.tail, id);
      this.idKinds[this.tail] = 0;
    }
    this.times[this.tail] = createdMs;
    this.prints[this.tail] = print;
    this.tail += 1;
    return true;
  }

  /** Drops the records created before `bound`, and any without a creation time (no date filter reads those again). */
  forgetOlderThan(bound: number): void {
    while (this.head < this.tail && !((this.times[this.head] as number) >= bound)) {
      this.texts.delete(this.head);
      this.head += 1;
    }
  }

  /** Moves the window to the start of its arrays when most of them is dropped records; else doubles them. */
  private makeRoom(): void {
    if (this.head * 2 >= this.tail) {
      this.ids.copyWithin(0, this.head * 16, this.tail * 16);
      for (const [at, text] of [...this.texts]) {
        this.texts.delete(at);
        this.texts.set(at - this.head, text);
      }
      this.idKinds.copyWithin(0, this.head, this.tail);
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
    this.ids = grown(this.ids, (n) => Buffer.alloc(n), size * 16);
    this.idKinds = grown(this.idKinds, (n) => new Uint8Array(n), size);
    this.times = grown(this.times, (n) => new Float64Array(n), size);
    this.prints = grown(this.prints, (n) => new Float64Array(n), size);
  }

  /** [id, created_at, fingerprint] of each record, oldest first, for the state file. */
  *entries(): Generator<[string, string, string]> {
    for (let i = this.head; i < this.tail; i++) {
      const time = this.times[i] as number;
      const id = this.idKinds[i] === PACKED ? this.ids.toString('hex', i * 16, i * 16 + 16) : (this.texts.get(i) as string);
      yield [id, Number.isFinite(time) ? new Date(time).toISOString() : '', printText(this.prints[i] as number)];
    }
  }
}
