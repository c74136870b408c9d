// `cards get` (and what `cards associate` prints) on a terminal: the card as it is named everywhere
// ("MasterCard ••••4444"), whose it is (the buyer by name), when it expires and what the service
// checked of it. A card token (`cards tokenize`) shows the card it holds the same way. See
// src/output/object-view.ts.
import { getPath } from '../../output/fields.js';
import type { ObjectView, ViewField } from '../../output/object-view.js';
import { cardName } from '../../output/record-names.js';
import { CREATED, CUSTOMER } from '../../output/resource-view.js';

type Item = Record<string, unknown>;

const yesNo = (value: unknown) => (value === true || value === 'true' ? 'yes' : value === false || value === 'false' ? 'no' : undefined);

/** The card at `path` of the item ('' for the item itself). */
function cardAt(item: Item, path: string): Item | undefined {
  const card = getPath(item, path);
  return card && typeof card === 'object' && !Array.isArray(card) ? (card as Item) : undefined;
}

/** "12/2030". */
function expires(card: Item | undefined): string | undefined {
  const month = card?.expiration_month;
  const year = card?.expiration_year;
  if (month === undefined || month === null || month === '' || year === undefined || year === null || year === '') return undefined;
  return `${String(month).padStart(2, '0')}/${String(year)}`;
}

/** "security code pass, postal code unchecked": what the service checked when the card was stored. */
function checks(card: Item | undefined): string | undefined {
  const list = card?.verification_checklist;
  if (!list || typeof list !== 'object' || Array.isArray(list)) return undefined;
  const lines = Object.entries(list as Item)
    .filter(([, result]) => typeof result === 'string' && result !== '')
    .map(([check, result]) => `${check.replace(/_check$/, '').replace(/_/g, ' ')} ${String(result)}`);
  return lines.length > 0 ? lines.join(', ') : undefined;
}

/** What a card shows, on its own (`path` '') or inside a token or a source ('card'). */
export function cardFields(path: string): ViewField[] {
  const at = (field: string) => (path === '' ? field : `${path}.${field}`);
  return [
    { label: 'Card', at: (item) => cardName(cardAt(item, path)) },
    { label: 'Holder', at: at('holder_name') },
    { label: 'Expires', at: (item) => expires(cardAt(item, path)) },
  ];
}

export const CARD_VIEW: ObjectView = {
  noun: 'Card',
  id: 'id',
  summary: [
    ...cardFields(''),
    CUSTOMER,
    { label: 'Active', at: (card) => yesNo(card.is_active) },
    { label: 'Verified', at: (card) => yesNo(card.is_verified) },
    { label: 'Checks', at: (card) => checks(card) },
    CREATED,
  ],
  sections: [],
};

/** A single-use token: the card it stands for, and whether it was used. */
export const CARD_TOKEN_VIEW: ObjectView = {
  noun: 'Card token',
  id: 'id',
  summary: [...cardFields('card'), { label: 'Used', at: (token) => yesNo(token.used) }, CREATED],
  sections: [],
};
