import { randomInt } from 'node:crypto';
import { SANDBOX_ACCOUNT_ID, SANDBOX_BUYER_ID, SANDBOX_CARD_ID, SANDBOX_MARKETPLACE_ID, SANDBOX_SELLER_ID } from '../../provider/sandbox-account.js';

// Ids as the database keeps them. An id looks like the provider's (32 hex characters), but kept as
// text it costs 33 bytes in its row and again in each index that holds it, and a generated sale
// holds some twenty of them. So the ids a database makes itself are the numbers 1, 2, 3, … run
// through a fixed mixing of 128 bits (four rounds of a Feistel network, undone the same way) with
// the database's own random salt: they look random and differ between databases, and the
// database keeps the number (1 to 4 bytes). The sandbox account's fixed ids are kept as small
// negative numbers. Any other id (made by another database, or not an id at all) is kept as the
// text it is, so what is read back is always what was written. A database's codes are its own
// (SandboxDb.ids): whatever packs or reads its rows is handed them, never finds them set aside,
// so two marketplaces served by one process never code each other's ids.

/** Marks a block as one of ours before mixing: an id that unmixes to anything else was not made here. */
const MAGIC = 0x7061_7963;
const ROUNDS = 4;
const KEYS = [0x9e3779b9, 0x7f4a7c15, 0x85ebca6b, 0xc2b2ae35, 0x27d4eb2f, 0x165667b1, 0xd3a2646c, 0xfd7046c5, 0xb55a4f09, 0x68e31da4, 0x1b873593, 0xcc9e2d51, 0xe6546b64, 0x2545f491, 0x4f6cdd1d, 0x94d049bb];

/** Murmur3's finaliser: every input bit moves about half the output bits. */
function mixWord(x: number, key: number): number {
  let h = (x + key) | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The block being mixed, as four unsigned 32-bit words: set before mixing, read after it. */
const block = new Uint32Array(4);

// Each round mixes each word with the one before it. The words are locals, not the block's
// places, while the rounds run: reading every id of a listing back unmixes several per sale.
function scramble(): void {
  let w0 = block[0] as number;
  let w1 = block[1] as number;
  let w2 = block[2] as number;
  let w3 = block[3] as number;
  for (let r = 0; r < 4 * ROUNDS; r += 4) {
    w0 ^= mixWord(w3, KEYS[r] as number);
    w1 ^= mixWord(w0, KEYS[r + 1] as number);
    w2 ^= mixWord(w1, KEYS[r + 2] as number);
    w3 ^= mixWord(w2, KEYS[r + 3] as number);
  }
  block[0] = w0;
  block[1] = w1;
  block[2] = w2;
  block[3] = w3;
}

function unscramble(): void {
  let w0 = block[0] as number;
  let w1 = block[1] as number;
  let w2 = block[2] as number;
  let w3 = block[3] as number;
  for (let r = 4 * ROUNDS - 4; r >= 0; r -= 4) {
    w3 ^= mixWord(w2, KEYS[r + 3] as number);
    w2 ^= mixWord(w1, KEYS[r + 2] as number);
    w1 ^= mixWord(w0, KEYS[r + 1] as number);
    w0 ^= mixWord(w3, KEYS[r] as number);
  }
  block[0] = w0;
  block[1] = w1;
  block[2] = w2;
  block[3] = w3;
}

const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
/** Where an id's 32 characters are written, then read as one flat string: a string joined from parts keeps every part alive (a page of ids read back held megabytes of them). */
const idChars = Buffer.alloc(32);

function writeHex(word: number, at: number): void {
  let w = word;
  for (let i = at + 7; i >= at; i -= 1) {
    idChars[i] = HEX_DIGITS[w & 15] as number;
    w >>>= 4;
  }
}
/** The value of a lowercase hex digit's character code, or -1. */
const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i += 1) DIGIT['0123456789abcdef'.charCodeAt(i)] = i;

/** The word written by the 8 lowercase hex digits of `id` from `at`, or -1 if another character is there. */
function hexWord(id: string, at: number): number {
  let word = 0;
  for (let i = at; i < at + 8; i += 1) {
    const code = id.charCodeAt(i);
    const digit = code < 128 ? (DIGIT[code] as number) : -1;
    if (digit < 0) return -1;
    word = word * 16 + digit;
  }
  return word;
}

const TWO_32 = 2 ** 32;

/** The sandbox account's ids, kept as -1, -2, …: every sale names the seller, its account, or both. */
const WELL_KNOWN = [SANDBOX_SELLER_ID, SANDBOX_ACCOUNT_ID, SANDBOX_MARKETPLACE_ID, SANDBOX_BUYER_ID, SANDBOX_CARD_ID];
const WELL_KNOWN_CODES = new Map(WELL_KNOWN.map((id, i) => [id, -(i + 1)]));

/** How many newly made ids are remembered with their numbers (see made). */
const MADE_KEPT = 4096;

export class IdCodes {
  /**
   * Ids this process made lately, with their numbers: a new record's id is coded again as each
   * row naming it is packed (a sale's own row, its receivables, its ledger lines), and a lookup
   * costs less than undoing the mixing each time.
   */
  private readonly made = new Map<string, number>();

  constructor(readonly salt: number) {}

  /** The id numbered `n`, made for a new record: remembered with its number for a while. */
  make(n: number): string {
    const id = this.text(n);
    if (this.made.size >= MADE_KEPT) this.made.clear();
    this.made.set(id, n);
    return id;
  }

  /** The id numbered `n` (1 and up) of this database. */
  text(n: number): string {
    block[0] = MAGIC;
    block[1] = this.salt;
    block[2] = Math.floor(n / TWO_32);
    block[3] = n % TWO_32;
    scramble();
    for (let i = 0; i < 4; i += 1) writeHex(block[i] as number, 8 * i);
    return idChars.toString('latin1');
  }

  /** What the database keeps for `id`: its number when this database made it, else the id itself. */
  code(id: string): number | string {
    const made = this.made.get(id);
    if (made !== undefined) return made;
    const known = WELL_KNOWN_CODES.get(id);
    if (known !== undefined) return known;
    if (id.length !== 32) return id;
    for (let i = 0; i < 4; i += 1) {
      const word = hexWord(id, 8 * i);
      if (word < 0) return id;
      block[i] = word;
    }
    unscramble();
    // Two to the 53rd at most: a number JavaScript counts exactly.
    if (block[0] !== MAGIC || block[1] !== this.salt || (block[2] as number) >= 0x20_0000) return id;
    const n = (block[2] as number) * TWO_32 + (block[3] as number);
    return n > 0 ? n : id;
  }

  /** The id a kept value stands for (code, undone); any other value as it is. */
  id(kept: unknown): unknown {
    if (typeof kept !== 'number') return kept;
    return kept < 0 ? WELL_KNOWN[-kept - 1] : this.text(kept);
  }
}

/** A new database's salt: two databases make different ids from the same numbers. */
export function newSalt(): number {
  return randomInt(1, 2 ** 32 - 1);
}
