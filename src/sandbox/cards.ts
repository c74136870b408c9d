import { TEST_CARDS } from './test-cards.js';
import { newId } from './ids.js';
import type { Problem } from './errors.js';
import type { JsonObject } from './http.js';
import { isoTimestamp } from './time.js';
import type { CardPaymentMethod, CardRecord, CardView, SandboxState } from './types.js';

// The full card number and CVV exist only inside parseCardInput: what leaves it is the card as
// it may be stored and shown (first 4 or 6 / last 4, brand, holder, expiry).

export const DECLINED_TEST_CARD = TEST_CARDS.find(([, outcome]) => outcome === 'declined')![0];

export interface AcceptedCard {
  brand: string;
  first4: string;
  first6: string;
  last4: string;
  holder_name: string;
  expiration_month: string;
  expiration_year: string;
  declines: boolean;
}

/** Brand by IIN prefix; Brazilian brands come first because some of their ranges sit inside Visa's. */
export function brandOf(pan: string): string {
  if (/^(401178|401179|431274|438935|451416|457393|457631|457632|504175|506699|5067|509|627780|636297|636368|650|6516|6550)/.test(pan)) {
    return 'Elo';
  }
  if (/^(606282|3841)/.test(pan)) return 'Hipercard';
  if (/^3[47]/.test(pan)) return 'American Express';
  if (/^4/.test(pan)) return 'Visa';
  if (/^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/.test(pan)) return 'MasterCard';
  if (/^(30[0-5]|36|38|39)/.test(pan)) return 'Diners Club';
  if (/^(6011|64[4-9]|65)/.test(pan)) return 'Discover';
  if (/^35/.test(pan)) return 'JCB';
  return 'Unknown';
}

/**
 * Raw card data (direct authorization, tokenization, sources), which has met the request schema:
 * a number of 12 to 19 digits passing the Luhn check, a holder, a month, a year of 2 or 4 digits,
 * a CVV of 3 or 4. What is left is the clock: an expired card is added to `problems` under `prefix`.
 * Messages never repeat the number or the CVV.
 */
export function parseCardInput(raw: JsonObject, prefix: string, problems: Problem[], now: Date): AcceptedCard | undefined {
  const pan = raw.card_number as string;
  const month = Number(raw.expiration_month);
  const yearText = raw.expiration_year as string;
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  // A card is good through the last day of its expiry month.
  if (Date.UTC(year, month, 1) <= now.getTime()) {
    problems.push({ field: prefix ? `${prefix}.expiration_year` : 'expiration_year', message: 'the card has expired' });
    return undefined;
  }
  return {
    brand: brandOf(pan),
    first4: pan.slice(0, 4),
    first6: pan.slice(0, 6),
    last4: pan.slice(-4),
    holder_name: (raw.holder_name as string).trim(),
    expiration_month: String(month),
    expiration_year: String(year),
    declines: pan === DECLINED_TEST_CARD,
  };
}

/** Keeps a new card record of `card`, on file for `customer` when given. */
export function storeCard(state: SandboxState, card: AcceptedCard, customer: string | null, now: Date): CardRecord {
  const at = isoTimestamp(now);
  const record: CardRecord = {
    id: newId(state),
    brand: card.brand,
    first4: card.first4,
    first6: card.first6,
    last4: card.last4,
    expiration_month: card.expiration_month,
    expiration_year: card.expiration_year,
    holder_name: card.holder_name,
    customer,
    fingerprint: newId(state),
    declines: card.declines,
    created_at: at,
    updated_at: at,
  };
  state.cards.put(record.id, record);
  return record;
}

/** How the card is named to people, like a bank statement does: "Visa final 1111". */
function cardDescription(card: Pick<CardRecord, 'brand' | 'last4'>): string {
  return `${card.brand === 'Unknown' ? 'Cartão' : card.brand} final ${card.last4}`;
}

/** The card as it appears inside a transaction (seed 2.3). */
export function cardPaymentMethod(card: CardRecord, marketplaceId: string): CardPaymentMethod {
  return {
    id: card.id,
    resource: 'card',
    description: cardDescription(card),
    card_brand: card.brand,
    first4_digits: card.first4,
    last4_digits: card.last4,
    expiration_month: card.expiration_month,
    expiration_year: card.expiration_year,
    holder_name: card.holder_name,
    is_active: true,
    is_valid: true,
    is_verified: false,
    customer: card.customer,
    fingerprint: card.fingerprint,
    uri: `/v1/marketplaces/${marketplaceId}/cards/${card.id}`,
    metadata: {},
    created_at: card.created_at,
    updated_at: card.updated_at,
  };
}

/**
 * The card on file as GET /cards/{id} serves it: seed 2.3 plus the card record's own fields. The
 * CVV was checked for shape only and no address was given, so those checks stay unchecked.
 */
export function cardView(card: CardRecord, marketplaceId: string): CardView {
  const verification_checklist = { postal_code_check: 'unchecked', security_code_check: 'pass', address_line1_check: 'unchecked' } as const;
  return { ...cardPaymentMethod(card, marketplaceId), verification_checklist, address: null };
}
