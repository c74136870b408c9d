// A new card for a known buyer, in the command that charges it (`transactions create` with the
// card's details and --customer): tokenized, associated with the buyer, then charged by its id.
// Saving a card moves no money, but one sale must not save it twice either: the card saved is kept
// in the ledger under the sale's key (an applied cards.associate whose proof is the card's id), so
// a rerun of the same sale (its reference given again, or taken back from a run whose outcome was
// unknown) charges that card instead of saving another. Whatever fails says what was done: the
// card saved or not, and nothing charged.
import { createHash } from 'node:crypto';
import type { ApiClient } from '../../api/client.js';
import { ApiError, OutcomeUnknownError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { Intent } from '../../ledger/types.js';
import type { Card } from '../cards/shared.js';
import { buildTokenizeRequest } from '../cards/tokenize.js';
import type { CardInput } from '../shared/card.js';

/** How the ledger names the saving of a card. */
export const SAVE_CARD = 'cards.associate';

/** The card a sale saved to its buyer, and how an error after that says so. */
export interface SavedCard {
  id: string;
  /** `err`, saying the card is saved (and how to charge it, or, for a declined card, remove it). */
  alsoSay(err: unknown, declined?: boolean): unknown;
}

/** `err` with what was done before it, its kind and exit code kept. */
function saying(err: unknown, done: string): unknown {
  if (err instanceof Error) err.message = `${err.message.replace(/[.\s]+$/, '')}; ${done}`;
  return err;
}

/**
 * What tells this card, for this buyer, from another, without its number: the digits a receipt
 * may show (the first six and the last four), the expiry and the holder, hashed.
 */
function cardFingerprint(card: CardInput, customer: string): string {
  const digits = card.card_number.replace(/\D/g, '');
  const shown = [customer, digits.slice(0, 6), digits.slice(-4), card.expiration_month, card.expiration_year, card.holder_name];
  return createHash('sha256').update(JSON.stringify(['saved card', ...shown])).digest('hex');
}

/** The card an earlier run saved, if it is still there and still the buyer's. */
async function stillTheirs(api: ApiClient, id: string, customer: string): Promise<Card | undefined> {
  try {
    const card = await api.call<Card>('cards.get', { params: { id } });
    return card.customer === customer ? card : undefined;
  } catch (err) {
    if (err instanceof ApiError && err.details.httpStatus === 404) return undefined;
    throw err;
  }
}

/** "MasterCard ••••4444": short enough for a status line with two ids in 80 columns. */
const cardName = (card: Card) => `${card.card_brand ?? 'Card'} ••••${card.last4_digits ?? '????'}`;

function savedCard(card: Card, customer: string): SavedCard {
  const saved = `the card ${cardName(card)} is saved to buyer ${customer} as card ${card.id}`;
  return {
    id: card.id,
    alsoSay: (err, declined = false) =>
      saying(
        err,
        declined
          ? `${saved} (payctl cards remove ${card.id} removes it)`
          : err instanceof OutcomeUnknownError
            ? `${saved}: the rerun charges that card, if this charge did not go through`
            : `${saved}: to charge it, give --card ${card.id} instead of the card's details`,
      ),
  };
}

/**
 * Saves `payment`'s card to its buyer for the sale locked under `key` (whose intents are `memory`)
 * and returns it: the one an earlier run of this sale saved, or a new one (tokenized, then
 * associated, and noted in the ledger).
 */
export async function saveCardForSale(
  ctx: Factory,
  api: ApiClient,
  ledger: Ledger,
  key: string,
  memory: Intent[],
  payment: { card: CardInput; customer: string },
): Promise<SavedCard> {
  const { customer } = payment;
  const fingerprint = cardFingerprint(payment.card, customer);
  const earlier = memory.find((i) => i.operation === SAVE_CARD && i.state === 'applied' && i.fingerprint === fingerprint && i.proof !== null);
  const kept = earlier?.proof ? await stillTheirs(api, earlier.proof, customer) : undefined;
  if (kept) {
    ctx.log.status(`Charging card ${kept.id} (${cardName(kept)}), which an earlier run of this sale saved to the buyer`);
    return savedCard(kept, customer);
  }
  const notSaved = `the card was not saved to buyer ${customer}, and nothing was charged`;
  const token = await api.call('cards.tokenize', { body: buildTokenizeRequest(payment.card) }).catch((err: unknown) => Promise.reject(saying(err, notSaved)));
  let card: Card;
  try {
    card = await api.call<Card>('cards.associate', { body: { token: token.id ?? '', customer } });
  } catch (err) {
    // Refused, it was not saved; an answer lost, it may have been.
    const refused = err instanceof ApiError && err.details.httpStatus < 500;
    throw saying(err, refused ? notSaved : `the card may or may not have been saved to buyer ${customer} (see payctl buyers get ${customer}), and nothing was charged`);
  }
  await ledger
    .record({ key, operation: SAVE_CARD, target: customer, state: 'applied', proof: card.id, fingerprint, detail: `saved ${cardName(card)}` })
    .catch((err: unknown) => ctx.log.warn(`the card saved could not be noted in the ledger (${(err as Error).message}): a rerun of this sale would save it again`));
  ctx.log.status(`Saved ${cardName(card)} to the buyer as card ${card.id}`);
  return savedCard(card, customer);
}
