import { findAllBy } from './db/queries.js';
import { cardDescription, cardUri, newCardRecord, parseCardInput, VERIFICATION_CHECKLIST, type AcceptedCard } from './cards.js';
import { found, SandboxError } from './errors.js';
import type { JsonObject } from './http.js';
import { newId } from './ids.js';
import type { CardRecord, SandboxState, TokenRecord } from './types.js';
import { Checker } from './validate.js';

/** Validation happens before the state is touched, so a rejected card never reaches the lock. */
export function validateTokenRequest(body: JsonObject, now: Date): AcceptedCard {
  const check = new Checker();
  const card = parseCardInput(body, '', check, now);
  check.throwIfAny();
  return card as AcceptedCard;
}

export function createToken(state: SandboxState, card: AcceptedCard, now: Date) {
  const record = newCardRecord(card, null, now);
  const token: TokenRecord = { id: newId(), card_id: record.id, used: false, created_at: record.created_at };
  state.cards.put(record.id, record);
  state.tokens.put(token.id, token);
  return tokenView(token, record, state.marketplace_id);
}

/** Seed 2.5: the token's card carries first4_digits and deliberately no last4_digits. */
function tokenView(token: TokenRecord, card: CardRecord, marketplaceId: string) {
  return {
    id: token.id,
    resource: 'token',
    // The seed types `used` as a string; the sample carries the text form of the boolean.
    used: String(token.used),
    type: 'card',
    card: {
      id: card.id,
      resource: 'card',
      // Names the last four, which the token's card shows nowhere else (seed 2.5): the same
      // description the card has once stored or charged.
      description: cardDescription(card),
      card_brand: card.brand,
      first4_digits: card.first4,
      expiration_month: card.expiration_month,
      expiration_year: card.expiration_year,
      holder_name: card.holder_name,
      customer: card.customer,
      fingerprint: card.fingerprint,
      uri: cardUri(marketplaceId, card.id),
      is_active: true,
      is_valid: true,
      is_verified: false,
      metadata: {},
      verification_checklist: { ...VERIFICATION_CHECKLIST },
      created_at: card.created_at,
      updated_at: card.updated_at,
    },
  };
}

/** Charging a tokenized card spends its token, as on the provider. */
export function markTokenUsed(state: SandboxState, cardId: string): void {
  for (const token of findAllBy<TokenRecord>(state, 'tokens', { card_id: cardId })) token.used = true;
}

/**
 * A token that may still be spent, with its card. A token stands for one use of the card data
 * behind it (a charge, an association, a single-use source); after that the provider refuses it.
 */
export function usableToken(state: SandboxState, id: string): { token: TokenRecord; card: CardRecord } {
  const token = found(state.tokens.get(id), 'token', id);
  if (token.used) {
    throw new SandboxError(400, 'token_already_used', `The token (id: ${id}) has already been used`, {
      reasons: ['token: tokens are single-use; tokenize the card again'],
    });
  }
  return { token, card: found(state.cards.get(token.card_id), 'card', token.card_id) };
}
