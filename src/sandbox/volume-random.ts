// Randomness for generated volume that comes out the same for the same seed: each sale and each
// buyer draws from a stream of its own, named by the seed, what it is (a sale, a buyer, a sale's
// fate) and its number, so a part of a volume can draw any sale's numbers again without drawing
// every sale before it, and one volume is the same however it is cut into parts.

/** Murmur3's finaliser: every input bit moves about half the output bits. */
function mix(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** What a stream is of: each kind draws numbers unrelated to the others' for the same number. */
export const STREAM = { sale: 1, fate: 2, buyer: 3, document: 4, cards: 5 } as const;

/** A list of items each drawn in proportion to its weight (Draws.weighted), its sums worked out once. */
export class Weighted<T> {
  readonly items: readonly T[];
  /** The running sums of the weights: item i is drawn for a number below bounds[i] and not below the one before. */
  readonly bounds: readonly number[];
  readonly total: number;

  constructor(pairs: ReadonlyArray<readonly [T, number]>) {
    this.items = pairs.map(([item]) => item);
    let sum = 0;
    this.bounds = pairs.map(([, weight]) => (sum += weight));
    this.total = sum;
  }
}

/** A stream of uniform numbers in [0, 1): mulberry32, started from the seed, the kind and the number. */
export class Draws {
  private state: number;

  constructor(seed: number, kind: number, n: number) {
    this.state = mix(mix(seed ^ Math.imul(kind, 0x9e3779b9)) ^ mix(n + 0x632be5ab));
  }

  /** The next number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  }

  /** A whole number from `min` to `max`, both included. */
  between(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** One item of a list, each as likely. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One item of a weighted list, by weight. */
  weighted<T>(list: Weighted<T>): T {
    const at = this.next() * list.total;
    let i = 0;
    while (i < list.bounds.length - 1 && at >= (list.bounds[i] as number)) i += 1;
    return list.items[i] as T;
  }

  /** A string of `length` decimal digits. */
  digits(length: number): string {
    let out = '';
    for (let i = 0; i < length; i += 1) out += String(Math.floor(this.next() * 10));
    return out;
  }

  /** A normally distributed number (mean 0, deviation 1), by the Box–Muller transform. */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
}
