import { findCard } from './card-ops.js';
import { cardView, newCardRecord, parseCardInput, type AcceptedCard } from './cards.js';
import { notFound } from './errors.js';
import { requireSeller } from './sellers.js';
import { isObject, type JsonObject } from './http.js';
import { newId } from './ids.js';
import { centsToDecimal, parseCents } from './money.js';
import { isoTimestamp } from './time.js';
import { usableToken } from './tokens.js';
import { parseCapture, parseInstallments } from './transactions-create.js';
import type { CardView, Deleted, SandboxState, Source } from './types.js';
import { Checker } from './validate.js';

// Sources: what a sale will be charged to (a card, a buyer's card on file, or a card token),
// prepared ahead of the transaction. Raw card data is reduced to a card record on the way in,
// like a tokenization, so a source never holds a card number or CVV.

// The provider's source type takes one value: what is charged is told by which of card, token or
// customer the body carries.
const TYPES = ['card'] as const;
const USAGES = ['single_use', 'reusable'] as const;

type Choice =
  | { kind: 'card'; id: string }
  | { kind: 'card-data'; card: AcceptedCard }
  | { kind: 'customer'; id: string }
  | { kind: 'token'; id: string };

function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[], check: Checker): T | undefined {
  if (value === undefined || value === null || value === '') {
    check.add(field, `is required (one of ${allowed.join(', ')})`);
    return undefined;
  }
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    check.add(field, `must be one of ${allowed.join(', ')}`);
    return undefined;
  }
  return value as T;
}

function optionalCents(value: unknown, field: string, check: Checker): number | undefined {
  if (value === undefined || value === null) return undefined;
  const cents = parseCents(value);
  if (cents === undefined || cents <= 0) {
    check.add(field, 'must be a positive integer amount in cents');
    return undefined;
  }
  return cents;
}

/** `{id, amount?}`; a bare id string is taken too, since the provider's schema types it both ways. */
function parseRef(value: unknown, field: string, check: Checker): { id: string; cents: number | undefined } | undefined {
  if (typeof value === 'string' && value !== '') return { id: value, cents: undefined };
  if (!isObject(value)) {
    check.add(field, 'is required: {"id": …}');
    return undefined;
  }
  const id = check.requiredString(value.id, `${field}.id`);
  const cents = optionalCents(value.amount, `${field}.amount`, check);
  return id ? { id, cents } : undefined;
}

export type SourcePlan = (state: SandboxState, now: Date) => Source;

export function planCreateSource(body: JsonObject, now: Date): SourcePlan {
  const check = new Checker();
  const usage = oneOf(body.usage, 'usage', USAGES, check);
  const type = oneOf(body.type, 'type', TYPES, check);
  const currency = check.currency(body.currency, 'currency');
  const amount = optionalCents(body.amount, 'amount', check);
  const description = check.optionalString(body.description, 'description') ?? null;
  const capture = body.capture === undefined || body.capture === null ? null : parseCapture(body.capture, check);
  const onBehalfOf = check.optionalString(body.on_behalf_of, 'on_behalf_of') ?? null;
  const referenceId = check.optionalString(body.reference_id, 'reference_id') ?? null;
  const statementDescriptor = check.optionalString(body.statement_descriptor, 'statement_descriptor', 22) ?? null;
  const installments = parseInstallments(body.installment_plan, check);
  const metadata = check.metadata(body.metadata, 'metadata') ?? {};

  let choice: Choice | undefined;
  let refCents: number | undefined;
  if (type === 'card') {
    const given = (['card', 'token', 'customer'] as const).filter((key) => body[key] !== undefined && body[key] !== null);
    if (given.length > 1) check.add(given[1] as string, `give one of card, token or customer, not ${given.join(' and ')}`);
    const origin = given[0];
    if (origin === 'token' || origin === 'customer') {
      const ref = parseRef(body[origin], origin, check);
      if (ref) choice = { kind: origin, id: ref.id };
      refCents = ref?.cents;
    } else {
      const card = body.card;
      if (!isObject(card)) check.add('card', 'is required unless token or customer is given: {"id": …} of a stored card, or card data');
      else if (card.id !== undefined) {
        if (card.card_number !== undefined) check.add('card', 'give either a card id or card data, not both');
        const id = check.requiredString(card.id, 'card.id');
        if (id) choice = { kind: 'card', id };
        refCents = optionalCents(card.amount, 'card.amount', check);
      } else {
        const accepted = parseCardInput(card, 'card', check, now);
        if (accepted) choice = { kind: 'card-data', card: accepted };
        refCents = optionalCents(card.amount, 'card.amount', check);
      }
    }
  }
  check.throwIfAny();
  const chosen = choice as Choice;
  const share = refCents ?? amount;
  const ref = (id: string) => ({ id, amount: share === undefined ? null : centsToDecimal(share) });

  return (state, at) => {
    if (onBehalfOf !== null) requireSeller(state, onBehalfOf);
    let card: CardView | null = null;
    let customer: Source['customer'] = null;
    let token: Source['token'] = null;
    if (chosen.kind === 'card') {
      card = cardView(findCard(state, chosen.id), state.marketplace_id);
    } else if (chosen.kind === 'card-data') {
      const record = newCardRecord(chosen.card, null, at);
      state.cards.put(record.id, record);
      card = cardView(record, state.marketplace_id);
    } else if (chosen.kind === 'customer') {
      if (!state.buyers.get(chosen.id)) throw notFound('customer', chosen.id);
      // The buyer's card is chosen when the source is charged, so none is fixed here.
      customer = ref(chosen.id);
    } else {
      const found = usableToken(state, chosen.id);
      // A reusable source may charge the token's card again; a single-use one spends the token.
      if (usage === 'single_use') found.token.used = true;
      card = cardView(found.card, state.marketplace_id);
      token = ref(chosen.id);
    }
    const stamp = isoTimestamp(at);
    const id = newId();
    const source: Source = {
      id,
      resource: 'source',
      status: 'pending',
      usage: usage as Source['usage'],
      amount: amount === undefined ? null : centsToDecimal(amount),
      currency: currency as string,
      description,
      type: type as Source['type'],
      capture,
      on_behalf_of: onBehalfOf,
      reference_id: referenceId,
      card,
      customer,
      token,
      installment_plan: installments,
      statement_descriptor: statementDescriptor,
      uri: `/v1/marketplaces/${state.marketplace_id}/sources/${id}`,
      metadata: Object.fromEntries(Object.entries(metadata).filter((e): e is [string, string] => e[1] !== null)),
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
