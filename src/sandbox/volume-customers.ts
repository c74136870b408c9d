import { registerBuyer } from './buyers.js';
import { fileCard } from './card-ops.js';
import { storeCard, type AcceptedCard } from './cards.js';
import { columnsIn } from './db/queries.js';
import type { Buyer, SandboxState } from './types.js';
import { buyerCards, buyerDocument, practiceBuyer } from './volume-buyers.js';

// The buyers of a generated volume in the sandbox: each registered the first time one of their
// sales is made, through the same code as `buyers create`, and each card put on file the first
// time they pay with it, as `cards associate` does. A buyer already registered (by an earlier part
// of the volume, or an earlier volume of the same seed) is found by their CPF, as the provider
// keeps one buyer per document, and buys again with the cards they have on file.

/** How many buyers are looked up by one query. */
const LOOKUP = 500;

interface Known {
  id: string;
  /** Their cards on file, by their place among the cards of their profile (an array, not a map: there may be 50,000 buyers). */
  cards: string[];
  /** How many cards their profile has; worked out with their first card sale. */
  cardCount?: number;
}

export class Customers {
  private readonly known = new Map<number, Known>();
  /** Buyers registered by this part of the volume. */
  registered = 0;

  constructor(private readonly seed: number) {}

  /**
   * Looks up which of `buyers` (numbers) are registered already, and their cards on file, a few
   * hundred at a time; those that are not will be registered with their first sale. Called inside
   * each write transaction before its sales: another process may have registered one since the last.
   */
  lookUp(state: SandboxState, buyers: Iterable<number>, now: Date): void {
    const wanted = [...new Set(buyers)].filter((n) => !this.known.has(n));
    for (let i = 0; i < wanted.length; i += LOOKUP) {
      const some = wanted.slice(i, i + LOOKUP);
      const documents = new Map(some.map((n) => [buyerDocument(this.seed, n), n]));
      const found = new Map<string, number>();
      // The oldest of a document's buyers is its buyer, as a search by CPF finds (buyer-ops.ts).
      for (const row of columnsIn(state, 'buyers', 'taxpayer_id', [...documents.keys()], ['taxpayer_id'], 't.created_ms, t.rowid')) {
        const n = documents.get(row.taxpayer_id as string) as number;
        if (this.known.has(n)) continue;
        this.known.set(n, { id: row.k as string, cards: [] });
        found.set(row.k as string, n);
      }
      if (found.size === 0) continue;
      for (const row of columnsIn(state, 'cards', 'customer', [...found.keys()], ['customer', 'first6', 'last4'])) {
        const n = found.get(row.customer as string) as number;
        const place = buyerCards(this.seed, n, '', now).findIndex((c) => c.first6 === row.first6 && c.last4 === row.last4);
        if (place >= 0) (this.known.get(n) as Known).cards[place] = row.k as string;
      }
    }
  }

  /** Buyer number `n`'s id, registered at `at` unless lookUp found them. */
  buyer(state: SandboxState, n: number, at: Date): string {
    return this.find(state, n, at).id;
  }

  /** The id of card `k` of buyer number `n` (their last when they have fewer), put on file at `at` if it is not yet. */
  card(state: SandboxState, n: number, k: number, at: Date): string {
    const known = this.find(state, n, at);
    known.cardCount ??= buyerCards(this.seed, n, '', at).length;
    const place = Math.min(k, known.cardCount - 1);
    let id = known.cards[place];
    if (id === undefined) {
      id = storeCard(state, practiceBuyer(this.seed, n, at).cards[place] as AcceptedCard, known.id, at).id;
      fileCard(state.buyers.get(known.id) as Buyer, id, at);
      known.cards[place] = id;
    }
    return id;
  }

  private find(state: SandboxState, n: number, at: Date): Known {
    let known = this.known.get(n);
    if (!known) {
      known = { id: registerBuyer(state, practiceBuyer(this.seed, n, at).input, at).id, cards: [] };
      this.known.set(n, known);
      this.registered += 1;
    }
    return known;
  }
}
