import type { Factory } from '../../factory.js';
import { cardName } from '../../output/record-names.js';
import { validateId } from '../../validate/index.js';

export interface Card {
  id: string;
  card_brand?: string;
  last4_digits?: string;
  holder_name?: string;
  customer?: string | null;
  [key: string]: unknown;
}

export function cardId(args: string[]): string {
  return validateId(args[0] ?? '', 'card id', '<id>');
}

export async function getCard(ctx: Factory, id: string): Promise<Card> {
  return (await ctx.api()).call<Card>('cards.get', { params: { id } });
}

/** "Visa ••••1111, Maria Silva": how a card is named in questions and status lines. */
export function describeCard(card: Record<string, unknown>): string {
  return [cardName(card) ?? 'Card ••••????', typeof card.holder_name === 'string' ? card.holder_name : ''].filter(Boolean).join(', ');
}
