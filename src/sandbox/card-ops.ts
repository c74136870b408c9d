import { cardView } from './cards.js';
import { findCustomer } from './buyer-ops.js';
import { found } from './errors.js';
import type { Creation } from './route.js';
import { isoTimestamp } from './time.js';
import { usableToken } from './tokens.js';
import type { Buyer, CardRecord, CardView, Deleted, SandboxState } from './types.js';
import type { RequestBody } from '../provider/schemas/requests.js';

// Cards on file: associating a tokenized card with a buyer, reading a card, removing it.

export function findCard(state: SandboxState, id: string): CardRecord {
  return found(state.cards.get(id), 'card', id);
}

/** The body has met the request schema: a token and a customer, both ids. */
export function planAssociateCard({ token: tokenId, customer: customerId }: RequestBody<'cards.associate'>): Creation<CardView> {

  return (state, now) => {
    const { token, card } = usableToken(state, tokenId);
    const buyer = findCustomer(state, customerId);
    token.used = true;
    card.customer = buyer.id;
    card.updated_at = isoTimestamp(now);
    fileCard(buyer, card.id, now);
    return cardView(card, state.marketplace_id);
  };
}

/** A card now on file for `buyer`: their first becomes the one charged when a transaction names only the buyer. */
export function fileCard(buyer: Buyer, cardId: string, now: Date): void {
  if (buyer.default_credit) return;
  buyer.default_credit = cardId;
  buyer.updated_at = isoTimestamp(now);
}

/** Removing a card detaches it from its owner; charging it by id answers 404 from then on. */
export function removeCard(state: SandboxState, id: string, now: Date): Deleted {
  const card = findCard(state, id);
  const owner = card.customer ? state.buyers.get(card.customer) : undefined;
  if (owner && owner.default_credit === id) {
    owner.default_credit = null;
    owner.updated_at = isoTimestamp(now);
  }
  state.cards.remove(id);
  return { id, resource: 'card', deleted: true };
}
