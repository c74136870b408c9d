import { findAllBy } from './db/queries.js';
import { cardView, storeCard, parseCardInput, type AcceptedCard } from './cards.js';
import { found, SandboxError, throwProblems, type Problem } from './errors.js';
import type { JsonObject } from './http.js';
import { newId } from './ids.js';
import type { CardRecord, CardView, SandboxState, TokenRecord } from './types.js';

/** Validation happens before the state is touched, so a rejected card never reaches the lock. */
export function validateTokenRequest(body: JsonObject, now: Date): AcceptedCard {
  const problems: Problem[] = [];
  const card = parseCardInput(body, '', problems, now);
  throwProblems(problems);
  return card as AcceptedCard;
}

export function createToken(state: SandboxState, card: AcceptedCard, now: Date) {
  const record = storeCard(state, card, null, now);
  const token: TokenRecord = { id: newId(state), card_id: record.id, used: false, created_at: record.created_at };
  state.tokens.put(token.id, token);
  return tokenView(token, record, state.marketplace_id);
}

/**
 * Seed 2.5: the token's card is the card on file in this order, with first4_digits and deliberately
 * no last4_digits (nor address). Its description still names the last four, which the token's card
 * shows nowhere else: the same description the card has once stored or charged.
 */
const TOKEN_CARD_FIELDS = [
  'id', 'resource', 'description', 'card_brand', 'first4_digits', 'expiration_month', 'expiration_year', 'holder_name', 'customer',
  'fingerprint', 'uri', 'is_active', 'is_valid', 'is_verified', 'metadata', 'verification_checklist', 'created_at', 'updated_at',
] as const;

function tokenView(token: TokenRecord, card: CardRecord, marketplaceId: string) {
  const view = cardView(card, marketplaceId);
  return {
    id: token.id,
    resource: 'token',
    // The seed types `used` as a string; the sample carries the text form of the boolean.
    used: String(token.used),
    type: 'card',
    card: Object.fromEntries(TOKEN_CARD_FIELDS.map((key) => [key, view[key]])) as Pick<CardView, (typeof TOKEN_CARD_FIELDS)[number]>,
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
