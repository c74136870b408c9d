import { findCustomer } from './buyer-ops.js';
import { findCard } from './card-ops.js';
import { cardView, storeCard, parseCardInput, type AcceptedCard } from './cards.js';
import { notFound, throwProblems, type Problem } from './errors.js';
import { requireSeller } from './sellers.js';
import type { Creation } from './route.js';
import type { JsonObject } from './http.js';
import { newId } from './ids.js';
import { centsToDecimal, parseCents } from './money.js';
import { isoTimestamp } from './time.js';
import { usableToken } from './tokens.js';
import { parseCapture, parseInstallments } from './transactions-create.js';
import type { CardView, Deleted, SandboxState, Source } from './types.js';
import { newMetadata } from './validate.js';
import type { RequestBody } from '../provider/schemas/requests.js';

// Sources: what a sale will be charged to (a card, a buyer's card on file, or a card token),
// prepared ahead of the transaction. Raw card data is reduced to a card record on the way in,
// like a tokenization, so a source never holds a card number or CVV.

/** `{id, amount?}` or a bare id, which the provider's schema types both ways. */
function refOf(value: unknown): { id: string; cents: number | undefined } {
  return typeof value === 'string' ? { id: value, cents: undefined } : { id: (value as JsonObject).id as string, cents: (value as JsonObject).amount as number | undefined };
}

/**
 * The body has met the provider's request schema: usage, type card, currency, each field's type
 * and length, and one of card, token or customer. What is left is the clock: an expired card.
 */
export function planCreateSource(body: RequestBody<'sources.create'>, now: Date): Creation<Source> {
  const { usage, currency, amount, capture: captureFlag, on_behalf_of: onBehalfOf = null, description = null, statement_descriptor: statementDescriptor = null } = body;
  const capture = captureFlag === undefined ? null : parseCapture(captureFlag);
  const referenceId = (body.reference_id as string | undefined) ?? null;
  const installments = parseInstallments(body.installment_plan);
  const metadata = newMetadata(body.metadata);

  // The schema has seen to it that exactly one is named.
  const origin = (['card', 'token', 'customer'] as const).find((key) => body[key] !== undefined && body[key] !== null) as 'card' | 'token' | 'customer';
  // The id of the token, customer or stored card named; or card data.
  let target: string | undefined;
  let cardData: AcceptedCard | undefined;
  let refCents: number | undefined;
  const problems: Problem[] = [];
  if (origin !== 'card') ({ id: target, cents: refCents } = refOf(body[origin]));
  else {
    const card = body.card as JsonObject;
    if (card.id !== undefined) target = card.id as string;
    else cardData = parseCardInput(card, 'card', problems, now);
    refCents = card.amount === undefined || card.amount === null ? undefined : parseCents(card.amount);
  }
  throwProblems(problems);
  const chosen = target as string;
  const share = refCents ?? amount;
  const ref = (id: string) => ({ id, amount: share === undefined ? null : centsToDecimal(share) });

  return (state, at) => {
    if (onBehalfOf !== null) requireSeller(state, onBehalfOf);
    let card: CardView | null = null;
    let customer: Source['customer'] = null;
    let token: Source['token'] = null;
    if (cardData) card = cardView(storeCard(state, cardData, null, at), state.marketplace_id);
    else if (origin === 'card') card = cardView(findCard(state, chosen), state.marketplace_id);
    else if (origin === 'customer') {
      findCustomer(state, chosen);
      // The buyer's card is chosen when the source is charged, so none is fixed here.
      customer = ref(chosen);
    } else {
      const found = usableToken(state, chosen);
      // A reusable source may charge the token's card again; a single-use one spends the token.
      if (usage === 'single_use') found.token.used = true;
      card = cardView(found.card, state.marketplace_id);
      token = ref(chosen);
    }
    const stamp = isoTimestamp(at);
    const id = newId(state);
    const source: Source = {
      id,
      resource: 'source',
      status: 'pending',
      usage,
      amount: amount === undefined ? null : centsToDecimal(amount),
      currency: currency.toUpperCase(),
      description,
      type: 'card',
      capture,
      on_behalf_of: onBehalfOf,
      reference_id: referenceId,
      card,
      customer,
      token,
      installment_plan: installments,
      statement_descriptor: statementDescriptor,
      uri: `/v1/marketplaces/${state.marketplace_id}/sources/${id}`,
      metadata,
      created_at: stamp,
      updated_at: stamp,
    };
    state.sources.put(id, source);
    return source;
  };
}

/** A removed source answers 404 like one that never existed. */
export function findSource(state: SandboxState, id: string): Source {
  const source = state.sources.get(id);
  if (!source || source.status === 'deleted') throw notFound('source', id);
  return source;
}

export function removeSource(state: SandboxState, id: string, now: Date): Deleted {
  const source = findSource(state, id);
  source.status = 'deleted';
  source.updated_at = isoTimestamp(now);
  return { id, resource: 'source', deleted: true };
}
