// Every record the sandbox makes, through the API or `sandbox generate`, is kept in its table's
// columns, never whole as JSON: a field added to a record but not to how its table keeps it would
// otherwise store every such record whole, several times its size, and nothing else would say so.
// The field lists of every resource are made from the provider's strict schemas
// (db/from-schema.ts), which what the sandbox serves fits exactly. Boletos and receipts are not records of their own (a
// boleto is its sale's payment method, a receipt is read from its sale): what they are kept in is
// their sale's row, and what is served of them is held to their schemas as well.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { SANDBOX_BUYER_ID, SANDBOX_CARD_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { describeIssues } from '../../src/provider/schemas/describe-issues.js';
import { createdWebhookStrict, eventStrict, replayStrict, webhookStrict } from '../../src/provider/schemas/events.js';
import { balanceEntryStrict, receivableStrict, transferStrict } from '../../src/provider/schemas/finance.js';
import { invoiceStrict, planStrict, subscriptionStrict } from '../../src/provider/schemas/recurrence.js';
import { boletoRecordStrict, receiptStrict, removalStrict } from '../../src/provider/schemas/documents.js';
import { buyerStrict, sellerStrict } from '../../src/provider/schemas/parties.js';
import { sourceStrict } from '../../src/provider/schemas/source.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { openSqlite, type SqlDatabase } from '../../src/platform/sqlite.js';
import type { Field } from '../../src/sandbox/db/fields.js';
import { TABLES } from '../../src/sandbox/db/schema.js';
import { statePaths } from '../../src/sandbox/store.js';
import { cardData, directCardBody, freshSandbox, MASTERCARD, VISA, type Fresh, type Reply } from './helpers.js';
import { advance, buyerWithCard, createPlan, sandboxToday, subscribe, wholePlan } from './recurrence-helpers.js';

let fresh: Fresh;
/** The sales served, as sent: the tests below hold each to the strict schema. */
const served: unknown[] = [];
/** What the recurrence, webhook and event routes answered, each with the strict schema it must fit. */
const servedOthers: Array<[z.ZodMiniType, unknown]> = [];

// What the setup reads of an answer to make the next request; the answer itself is kept as served.
const withId = z.looseObject({ id: z.string() });
const idOf = (answer: unknown) => z.parse(withId, answer).id;
const uuidOf = (answer: unknown) => z.parse(z.looseObject({ uuid: z.string() }), answer).uuid;
const itemsOf = (answer: unknown) => z.parse(z.looseObject({ items: z.array(z.unknown()) }), answer).items;
const saleFields = z.looseObject({ id: z.string(), payment_type: z.string(), sales_receipt: z.nullable(z.string()), payment_method: withId });
const eventFields = z.looseObject({ type: z.string(), payload: z.looseObject({ object: z.unknown() }) });

/** The id of an answer (a plan's or subscription's uuid), to name it in a failure. */
function nameOf(answer: unknown): string {
  const named = z.safeParse(z.looseObject({ id: z.optional(z.string()), uuid: z.optional(z.string()) }), answer);
  return named.success ? (named.data.uuid ?? named.data.id ?? '') : '';
}

async function sell(body: Record<string, unknown>): Promise<string> {
  const reply = await fresh.api.post('/v1/transactions', body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  served.push(reply.body);
  return idOf(reply.body);
}

async function change(path: string, body?: unknown): Promise<void> {
  const reply = await fresh.api.post(path, body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  served.push(reply.body);
}

/** Sends a request that must answer `status`, and keeps the answer to check against `schema`. */
async function answered(schema: z.ZodMiniType, status: number, reply: Promise<Reply>): Promise<unknown> {
  const { status: got, body } = await reply;
  expect(got, JSON.stringify(body)).toBe(status);
  servedOthers.push([schema, body]);
  return body;
}

/**
 * Plans, subscriptions (by card, by boleto, suspended), one-off invoices (paid, refunded), a
 * webhook and a replay, each changed at least once: the billing of the clock's advance and of the
 * generated volume makes the rest.
 */
async function recurrenceAndWebhooks(buyerId: string, cardId: string): Promise<void> {
  const { api } = fresh;
  const today = await sandboxToday(api);
  const plan = await createPlan(api, { frequency: 'daily', payment_methods: ['credit', 'boleto'], description: 'Diário', grace_period: 2, metadata: { tier: 'a' } });
  servedOthers.push([planStrict, plan]);
  await answered(planStrict, 200, api.put(`/v1/recurrence_plans/${uuidOf(plan)}`, wholePlan(plan, { name: 'Plano Diário' })));
  await answered(planStrict, 200, api.del(`/v1/recurrence_plans/${uuidOf(await createPlan(api))}`));
  const byCard = await subscribe(api, plan, today, { customer: buyerId, card: cardId, metadata: { order: 'S-1' } });
  servedOthers.push([subscriptionStrict, byCard]);
  servedOthers.push([subscriptionStrict, await subscribe(api, plan, today, { payment_method: 'boleto' })]);
  const suspended = await subscribe(api, plan, today, { customer: buyerId, card: cardId, expiration_date: '2099-12-31' });
  await answered(subscriptionStrict, 200, api.post(`/v1/recurrence_subscriptions/${uuidOf(suspended)}/suspend`));
  const oneOff = { customer: buyerId, amount: 15_000, currency: 'BRL', due_date: today, on_behalf_of: SANDBOX_SELLER_ID };
  const paid = await answered(invoiceStrict, 201, api.post('/v1/invoices', { ...oneOff, expiration_date: '2099-12-31', metadata: { order: 'I-1' } }));
  await answered(invoiceStrict, 200, api.post(`/v1/invoices/${idOf(paid)}/approve`));
  const refunded = await answered(invoiceStrict, 201, api.post('/v1/invoices', { ...oneOff, description: 'Adesão' }));
  await answered(invoiceStrict, 200, api.post(`/v1/invoices/${idOf(refunded)}/approve`));
  await answered(invoiceStrict, 200, api.del(`/v1/invoices/${idOf(refunded)}/void`));
  await answered(invoiceStrict, 201, api.post('/v1/invoices', oneOff));
  await answered(createdWebhookStrict, 201, api.post('/v1/webhooks', { method: 'POST', url: 'http://127.0.0.1:9/hook', description: 'all', event: ['*'] }));
  await answered(createdWebhookStrict, 201, api.post('/v1/webhooks', { url: 'https://example.com/hook', event: ['invoice.paid'] }));
  const first = idOf(itemsOf((await api.get('/v1/events?limit=1&sort=time-ascending')).body)[0]);
  await answered(replayStrict, 200, api.post(`/v1/events/${first}/actions/replay`));
}

beforeAll(async () => {
  fresh = await freshSandbox();
  const { buyer, card } = await buyerWithCard(fresh.api, MASTERCARD);
  const buyerId = idOf(buyer);
  const cardId = idOf(card);
  await recurrenceAndWebhooks(buyerId, cardId);
  const onBehalfOf = SANDBOX_SELLER_ID;
  const paid = await sell(directCardBody(undefined, 12_000, { installment_plan: { number_installments: 3 }, metadata: { order: 'A-1' } }));
  await change(`/v1/transactions/${paid}/void`, { on_behalf_of: onBehalfOf, amount: 2_000 });
  const held = await sell(directCardBody(undefined, 5_000, { capture: false }));
  await change(`/v1/transactions/${held}/capture`, { on_behalf_of: onBehalfOf, amount: 5_000 });
  await sell({ payment_type: 'credit', on_behalf_of: onBehalfOf, customer: buyerId, amount: 3_000, currency: 'BRL', source: { card: { id: cardId } } });
  const pix = await sell({ payment_type: 'pix', on_behalf_of: onBehalfOf, amount: 2_500, currency: 'BRL', reference_id: 'pix-1' });
  await change(`/v1/transactions/${pix}/approve`);
  const boleto = await sell({ payment_type: 'boleto', on_behalf_of: onBehalfOf, customer: SANDBOX_BUYER_ID, amount: 15_000, currency: 'BRL' });
  await change(`/v1/transactions/${boleto}/approve`);
  await sell({ payment_type: 'bolepix', on_behalf_of: onBehalfOf, customer: buyerId, amount: 4_000, currency: 'BRL' });
  // Receivables come due and are paid out: transfers, and the balance entries of all of it.
  await advance(fresh.api, 40);
  const generated = await fresh.api.post('/v1/sandbox/generate', { sales: 200, days: 5, seed: 7 });
  expect(generated.status, JSON.stringify(generated.body)).toBe(200);
  for (const id of [paid, held, pix, boleto]) {
    const reply = await fresh.api.get(`/v1/transactions/${id}`);
    served.push(reply.body);
  }
  const listed = await fresh.api.get('/v1/transactions?limit=100');
  served.push(...itemsOf(listed.body));
});

/** The buyers, sellers, sources, boletos, receipts and removals served, each with the strict schema it must fit. */
const servedParties: Array<{ schema: z.ZodMiniType; body: unknown; what: string }> = [];

async function serve(schema: z.ZodMiniType, what: string, reply: Reply, status = 200): Promise<unknown> {
  expect(reply.status, `${what}: ${JSON.stringify(reply.body)}`).toBe(status);
  servedParties.push({ schema, body: reply.body, what });
  return reply.body;
}

beforeAll(async () => {
  const { api } = fresh;
  // Buyers: with an address in part, then none; the seeded one; those generated above.
  const buyer = await serve(buyerStrict, 'buyer created', await api.post('/v1/buyers', { first_name: 'Joana', taxpayer_id: '111.444.777-35', address: { line1: 'Rua das Flores, 10', city: 'Recife' } }), 201);
  await serve(buyerStrict, 'buyer updated', await api.put(`/v1/buyers/${idOf(buyer)}`, { address: null, email: 'joana@example.com', metadata: { tier: 'gold' } }));
  const gone = await serve(buyerStrict, 'buyer created', await api.post('/v1/buyers', { first_name: 'Rui', last_name: 'Lima', taxpayer_id: '935.411.347-80' }), 201);
  await serve(removalStrict, 'buyer removed', await api.del(`/v1/buyers/${idOf(gone)}`));
  await serve(buyerStrict, 'buyer searched', await api.get(`/v1/buyers/search?taxpayer_id=${encodeURIComponent('529.982.247-25')}`));
  const buyers = await api.get('/v1/buyers?limit=100');
  for (const item of itemsOf(buyers.body)) servedParties.push({ schema: buyerStrict, body: item, what: 'buyer listed' });
  // Sellers: a person with an address, a company with its owner, each updated; the seeded company.
  const person = await serve(sellerStrict, 'individual seller', await api.post('/v1/sellers/individuals', { first_name: 'João', last_name: 'Souza', taxpayer_id: '529.982.247-25', email: 'joao@example.com', address: { line1: 'Rua A, 1', state: 'pe' } }), 201);
  await serve(sellerStrict, 'individual seller updated', await api.put(`/v1/sellers/individuals/${idOf(person)}`, { phone_number: '+5581999990000', metadata: { region: 'NE' } }));
  const company = await serve(
    sellerStrict,
    'business seller',
    await api.post('/v1/sellers/businesses', { business_name: 'Loja Azul Ltda', ein: '12.abc.345/01de-35', business_email: 'contato@lojaazul.com.br', business_address: { line1: 'Av. B, 2', postal_code: '50000-000' }, owner: { first_name: 'Ana', taxpayer_id: '111.444.777-35' } }),
    201,
  );
  await serve(sellerStrict, 'business seller updated', await api.put(`/v1/sellers/businesses/${idOf(company)}`, { owner: { email: 'ana@lojaazul.com.br' } }));
  await serve(removalStrict, 'seller removed', await api.del(`/v1/sellers/${idOf(person)}`));
  const sellers = await api.get('/v1/sellers?limit=100');
  for (const item of itemsOf(sellers.body)) servedParties.push({ schema: sellerStrict, body: item, what: 'seller listed' });
  // Sources of each origin: card data, a card on file, a buyer, a token; one removed.
  const token = idOf((await api.post('/v1/cards/tokens', cardData(VISA))).body);
  const sources = [
    { usage: 'single_use', currency: 'BRL', type: 'card', card: cardData(MASTERCARD), installment_plan: { number_installments: 2 }, capture: false, metadata: { order: 'S-1' } },
    { usage: 'reusable', currency: 'BRL', type: 'card', amount: 700, card: { id: SANDBOX_CARD_ID }, on_behalf_of: idOf(company), reference_id: 'src-1' },
    { usage: 'reusable', currency: 'BRL', type: 'card', amount: 700, customer: SANDBOX_BUYER_ID, description: 'Assinatura' },
    { usage: 'single_use', currency: 'BRL', type: 'card', token: { id: token, amount: 300 }, statement_descriptor: 'LOJA AZUL' },
  ];
  for (const body of sources) {
    const source = await serve(sourceStrict, 'source created', await api.post('/v1/sources', body), 201);
    await serve(sourceStrict, 'source read', await api.get(`/v1/sources/${idOf(source)}`));
  }
  await serve(removalStrict, 'source removed', await api.del(`/v1/sources/${idOf(servedParties.at(-1)?.body)}`));
  // A boleto record and a receipt for every sale served above that has one (generated ones included).
  const sales = served.map((answer) => z.parse(saleFields, answer));
  for (const txn of sales) {
    if (txn.payment_type === 'boleto' || txn.payment_type === 'bolepix') await serve(boletoRecordStrict, `boleto of ${txn.id}`, await api.get(`/v1/boletos/${txn.payment_method.id}`));
    if (txn.sales_receipt) await serve(receiptStrict, `receipt of ${txn.id}`, await api.get(`/v1/receipts/${txn.sales_receipt}`));
  }
  // A receipt "sent", which the sandbox records as a delivery of its own.
  const receipt = sales.find((txn) => txn.sales_receipt)?.sales_receipt;
  expect(receipt).toBeTruthy();
  expect((await api.post(`/v1/receipts/${receipt}/emails`, { to: 'cliente@example.com' })).status).toBe(200);
});
afterAll(() => fresh.close());

/** Why `value` does not fit the strict schema, or undefined. */
function mismatch(schema: z.ZodMiniType, value: unknown): string | undefined {
  const result = schema.safeParse(value);
  return result.success ? undefined : describeIssues(result.error.issues, value);
}

/** What the sandbox stored, read by a connection of the test's own (db-helpers.ts starts processes; this file needs none). */
async function withDb<T>(read: (db: SqlDatabase) => T): Promise<T> {
  const db = await openSqlite(statePaths(fresh.dir).file);
  try {
    return read(db);
  } finally {
    db.close();
  }
}

function rows<T>(db: SqlDatabase, sql: string, ...params: string[]): T[] {
  return db.prepare(sql).all(...params) as T[];
}

/** How a record differs from its fields, key by key: "txn.point_of_sale not in the fields". */
function howItDiffers(fields: readonly Field[], doc: Record<string, unknown>, prefix = ''): string {
  const keys = Object.keys(doc);
  const known = fields.map((field) => field.key);
  const extra = keys.filter((key) => !known.includes(key)).map((key) => `${prefix}${key} not in the fields`);
  const missing = known.filter((key) => !keys.includes(key)).map((key) => `${prefix}${key} missing`);
  if (extra.length + missing.length > 0) return [...extra, ...missing].join(', ');
  for (const field of fields) {
    const value = doc[field.key];
    if (field.inner && value !== null && typeof value === 'object') {
      const inner = howItDiffers(field.inner, value as Record<string, unknown>, `${prefix}${field.key}.`);
      if (inner) return inner;
    }
  }
  return keys.join(',') === known.join(',') ? '' : `${prefix || 'its '}keys in another order`;
}

/** The records of the tables kept as columns that are kept whole: "table: how they differ (how many)". */
async function keptWhole(): Promise<string[]> {
  return withDb((db) =>
    TABLES.flatMap((table) => {
      if (!table.fields) return [];
      const found = new Map<string, number>();
      for (const row of rows<{ k: string | number; doc: string }>(db, `SELECT k, doc FROM ${table.name} WHERE doc IS NOT NULL`)) {
        const doc = JSON.parse(row.doc) as Record<string, unknown>;
        const why = howItDiffers(table.fields, doc) || 'a value its field cannot keep';
        found.set(why, (found.get(why) ?? 0) + 1);
      }
      return [...found].map(([why, count]) => `${table.name}: ${why} (${count} records)`);
    }),
  );
}

describe('records kept as columns', () => {
  it('every table keeps its records as columns: none is left to whole JSON', () => {
    expect(TABLES.filter((table) => !table.fields).map((table) => table.name)).toEqual([]);
  });

  it('every record of every table kept as columns, made through the API or generated, has no JSON of its own', async () => {
    const counts = await withDb((db) =>
      Object.fromEntries(TABLES.filter((table) => table.fields).map((table) => [table.name, rows<{ n: number }>(db, `SELECT count(*) AS n FROM ${table.name}`)[0]?.n])),
    );
    // Something of each, so that none passes by being empty.
    for (const [name, count] of Object.entries(counts)) expect(count, name).toBeGreaterThan(0);
    expect(await keptWhole()).toEqual([]);
  });

  it('the versions kept for events are values without their keys', async () => {
    const versioned = TABLES.filter((table) => table.fields && table.versioned).map((table) => table.name);
    const objects = await withDb((db) =>
      rows<{ top: string; k: string }>(db, `SELECT top, k FROM versions WHERE top IN (${versioned.map(() => '?').join(', ')}) AND doc LIKE '{%'`, ...versioned),
    );
    expect(objects).toEqual([]);
  });

  it('every sale served fits the provider’s strict schema: every field, in its type, no field more', () => {
    expect(served.length).toBeGreaterThan(100);
    for (const txn of served) expect(mismatch(transactionStrict, txn), nameOf(txn)).toBeUndefined();
  });

  it.each([
    ['receivables', `/v1/sellers/${SANDBOX_SELLER_ID}/receivables`, receivableStrict],
    ['balance entries', `/v1/sellers/${SANDBOX_SELLER_ID}/balances/history`, balanceEntryStrict],
    ['transfers', '/v1/transfers', transferStrict],
  ] as const)('the %s served fit the provider’s strict schema', async (_name, path, schema) => {
    const reply = await fresh.api.get(`${path}?limit=100`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const items = itemsOf(reply.body);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(mismatch(schema, item), nameOf(item)).toBeUndefined();
  });

  it.each([
    ['plans', '/v1/recurrence_plans/', planStrict],
    ['subscriptions', '/v1/recurrence_subscriptions', subscriptionStrict],
    ['invoices', '/v1/invoices', invoiceStrict],
    ['webhooks', '/v1/webhooks', webhookStrict],
  ] as const)('the %s served, listed and as each change answered, fit their strict schema', async (_name, path, schema) => {
    const reply = await fresh.api.get(`${path}?limit=100`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const answers = servedOthers.filter(([made]) => made === schema || (schema === webhookStrict && made === createdWebhookStrict));
    const items = itemsOf(reply.body);
    expect(items.length + answers.length).toBeGreaterThan(1);
    for (const item of items) expect(mismatch(schema, item), nameOf(item)).toBeUndefined();
    for (const [made, item] of answers) expect(mismatch(made, item), nameOf(item)).toBeUndefined();
  });

  it('the events served fit the strict schema, each carrying its record as that record’s strict schema describes it; a replay fits its own', async () => {
    const records: Record<string, z.ZodMiniType> = { buyer: buyerStrict, transaction: transactionStrict, plan: planStrict, subscription: subscriptionStrict, invoice: invoiceStrict };
    const reply = await fresh.api.get('/v1/events?limit=100&sort=time-ascending');
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const events = itemsOf(reply.body);
    /** What an event was raised for: `plan` of `plan.created`. */
    const kindOf = (event: unknown) => z.parse(eventFields, event).type.replace(/\..*/, '');
    expect(new Set(events.map(kindOf))).toEqual(new Set(Object.keys(records)));
    for (const event of events) {
      const { type, payload } = z.parse(eventFields, event);
      expect(mismatch(eventStrict, event), type).toBeUndefined();
      const record = records[kindOf(event)] as z.ZodMiniType;
      expect(mismatch(record, payload.object), type).toBeUndefined();
    }
    const replays = servedOthers.filter(([made]) => made === replayStrict);
    expect(replays).toHaveLength(1);
    for (const [made, replay] of replays) expect(mismatch(made, replay)).toBeUndefined();
  });

  it('every buyer, seller, source, boleto, receipt and removal served fits its strict schema', () => {
    const kinds = new Set(servedParties.map(({ schema }) => schema));
    expect(kinds.size).toBe(6);
    expect(servedParties.filter(({ what }) => what.startsWith('boleto of')).length).toBeGreaterThan(2);
    expect(servedParties.filter(({ what }) => what.startsWith('receipt of')).length).toBeGreaterThan(50);
    for (const { schema, body, what } of servedParties) expect(mismatch(schema, body), what).toBeUndefined();
  });
});
