// Records kept as columns (db/fields.ts) come back exactly as they were written, key order
// included; one that does not have its table's shape is kept whole instead, and comes back the
// same too.
import { describe, expect, it } from 'vitest';
import { SANDBOX_BUYER_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { derived, fixed, flag, fromParent, id, ids, instant, json, mentioning, money, numeric, oneOf, pack, readBack, readLast, since, text, tuples, unpack, word, type Doc, type Row } from '../../src/sandbox/db/fields.js';
import { IdCodes } from '../../src/sandbox/db/id-codes.js';
import { docOf, docOfVersion, rowValues, storedColumns, TABLE_BY_NAME, versionText, type TableSpec } from '../../src/sandbox/db/schema.js';
import { buyerStrict } from '../../src/provider/schemas/parties.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { idCodesOf, rows, withDb } from './db-helpers.js';
import { directCardBody, expectServed, freshSandbox, nth, VISA } from './helpers.js';

const fields = [
  text('id'),
  fixed('resource', 'thing'),
  numeric('installment'),
  flag('liable'),
  money('amount', 'cents'),
  instant('created_at', 'created_ms'),
  derived('updated_at', (d) => d.created_at),
  instant('paid_at', 'paid_ms'),
  json('list'),
  fixed('bank', { code: '001' }),
];

const doc: Doc = {
  id: 'a1',
  resource: 'thing',
  installment: '12',
  liable: 'false',
  amount: '-1234.50',
  created_at: '2026-11-25T02:40:54.116Z',
  updated_at: '2026-11-25T02:40:54.116Z',
  paid_at: null,
  list: ['x', 'y'],
  bank: { code: '001' },
};

function roundTrip(value: Doc): Doc | undefined {
  const columns = pack(fields, value, codes);
  return columns && unpack(fields, readBack(fields, columns), codes);
}

// Ids as a database with this salt keeps them; any id it did not make is kept as its text.
const codes = new IdCodes(42);

describe('fields', () => {
  it('keep words as their place in a list, ids as their numbers, and named values once', () => {
    const layout = [
      id('id'),
      word(['succeeded', 'failed'])('status'),
      mentioning('description', 'description', [(d) => d.transaction, (d) => d.id]),
      id('transaction', 'txn'),
      ids('parts'),
    ];
    const made = codes.text(7);
    const value: Doc = { id: made, status: 'succeeded', description: `Sale ${SANDBOX_SELLER_ID} for ${made}, again ${SANDBOX_SELLER_ID}`, transaction: SANDBOX_SELLER_ID, parts: [made, 'other', SANDBOX_BUYER_ID] };
    const columns = pack(layout, value, codes);
    expect(Object.fromEntries(columns ?? [])).toEqual({ id: 7, status: 0, description: 'Sale \u0001 for \u0002, again \u0001', txn: -1, parts: '[7,"other",-4]' });
    expect(JSON.stringify(unpack(layout, readBack(layout, columns ?? new Map()), codes))).toBe(JSON.stringify(value));
    // A word not in the list is kept as it is; a text with a mark character of its own is not kept in columns.
    const other = { ...value, status: 'pending', description: null };
    expect(JSON.stringify(unpack(layout, readBack(layout, pack(layout, other, codes) ?? new Map()), codes))).toBe(JSON.stringify(other));
    expect(pack(layout, { ...value, description: 'a \u0001 b' }, codes)).toBeUndefined();
  });

  it('keep a record in typed columns and give it back the same, key order included', () => {
    const columns = pack(fields, doc, codes);
    expect(Object.fromEntries(columns ?? [])).toEqual({ id: 'a1', installment: 12, liable: 0, cents: -123450, created_ms: Date.parse('2026-11-25T02:40:54.116Z'), paid_ms: null, list: '["x","y"]' });
    expect(JSON.stringify(roundTrip(doc))).toBe(JSON.stringify(doc));
  });

  it('give each record read a constant object of its own', () => {
    const first = roundTrip(doc) as Doc;
    const second = roundTrip(doc) as Doc;
    (first.bank as Doc).code = '999';
    expect(second.bank).toEqual({ code: '001' });
    expect(roundTrip(doc)?.bank).toEqual({ code: '001' });
  });

  it.each<[string, Doc]>([
    ['another key order', { resource: 'thing', id: 'a1', ...doc }],
    ['a key more', { ...doc, extra: 1 }],
    ['a key less', Object.fromEntries(Object.entries(doc).filter(([k]) => k !== 'list'))],
    ['another constant', { ...doc, resource: 'other' }],
    ['money with one decimal', { ...doc, amount: '1.5' }],
    ['money with a leading zero', { ...doc, amount: '01.50' }],
    ['money of minus zero', { ...doc, amount: '-0.00' }],
    ['an instant without milliseconds', { ...doc, created_at: '2026-11-25T02:40:54Z', updated_at: '2026-11-25T02:40:54Z' }],
    ['a number where text was', { ...doc, id: 7 }],
    ['an installment with a leading zero', { ...doc, installment: '01' }],
    ['a flag that is a boolean', { ...doc, liable: false }],
    ['an update time of its own', { ...doc, updated_at: '2026-11-26T00:00:00.000Z' }],
    ['another constant object', { ...doc, bank: { code: '002' } }],
  ])('refuse %s: the record is then kept whole', (_what, other) => {
    expect(pack(fields, other, codes)).toBeUndefined();
  });
});

describe('tables kept as columns', () => {
  const receivables = TABLE_BY_NAME.get('receivables') as TableSpec;
  const receivable: Doc = {
    id: 'r'.repeat(32),
    resource: 'receivable',
    status: 'pending',
    recipient: 's'.repeat(32),
    transaction: 't'.repeat(32),
    split_rule: null,
    installment: '1',
    liable: 'true',
    amount: '97.01',
    gross_amount: '100.00',
    anticipation_fee: '0.00',
    paid_at: null,
    created_at: '2026-11-25T02:40:54.116Z',
    transaction_created_at: '2026-11-25T02:40:54.116Z',
    canceled_at: null,
    expected_on: '2026-12-25T00:00:00.000Z',
    authorization_code: '053478',
    id_original_receivable: null,
    prepaid: 'false',
    transfer: null,
  };
  const stored = (value: Doc): Row => Object.fromEntries(storedColumns(receivables).map((name, i) => [name, rowValues(receivables, value, codes)[i] ?? null]));

  it('a receivable: no JSON kept, every field read back from its column', () => {
    const row = stored(receivable);
    expect(row.doc).toBeNull();
    expect(row).toMatchObject({ cents: 9701, gross_cents: 10000, txn: 't'.repeat(32), installment: 1, liable: 1 });
    expect(JSON.stringify(docOf(receivables, row, codes))).toBe(JSON.stringify(receivable));
  });

  it('a receivable of another shape: kept whole as JSON, its lookup columns still filled', () => {
    const odd = { ...receivable, note: 'kept' };
    const row = stored(odd);
    expect(row.doc).toBe(JSON.stringify(odd));
    expect(row).toMatchObject({ id: 'r'.repeat(32), status: 'pending', cents: 9701, gross_cents: null });
    expect(JSON.stringify(docOf(receivables, row, codes))).toBe(JSON.stringify(odd));
  });
});

describe('buyers kept as columns', () => {
  it('a buyer the API registered and the seeded one: their fields in columns, their address as its values, read back as served', async () => {
    const fresh = await freshSandbox();
    try {
      const { api } = fresh;
      const body = { first_name: 'Joana', last_name: 'Pereira', email: 'joana@example.com', taxpayer_id: '111.444.777-35', address: { line1: 'Rua das Flores, 10', city: 'Recife', state: 'PE', postal_code: '50000-000' } };
      const created = expectServed(await api.post('/v1/buyers', body), 201, buyerStrict);
      const kept = await withDb(fresh.dir, (db) => rows<Row>(db, 'SELECT * FROM buyers ORDER BY rowid'));
      expect(kept.map((row) => row.doc === null)).toEqual([true, true]);
      const row = kept[1] as Row;
      expect(row).toMatchObject({ taxpayer_id: '11144477735', first_name: 'Joana', email: 'joana@example.com', created_ms: Date.parse(created.created_at) });
      expect(JSON.parse(String(row.json))[0]).toEqual([0, 'Rua das Flores, 10', null, null, null, 'Recife', 'PE', '50000000', null]);
      expect((await api.get(`/v1/buyers/${created.id}`)).body).toEqual(created);
      expect((await api.get(`/v1/buyers/${SANDBOX_BUYER_ID}`)).body).toMatchObject({ id: SANDBOX_BUYER_ID, taxpayer_id: '52998224725' });
    } finally {
      await fresh.close();
    }
  });
});

describe('transaction versions kept without their keys', () => {
  const transactions = TABLE_BY_NAME.get('transactions') as TableSpec;

  it('card, PIX and boleto sales, paid or pending: each version an array of values, read back as the API served it', async () => {
    const fresh = await freshSandbox();
    try {
      const { api } = fresh;
      const sales = [
        expectServed(await api.post('/v1/transactions', directCardBody(VISA, 1234, { installment_plan: { number_installments: 2 } })), 201, transactionStrict),
        expectServed(await api.post('/v1/transactions', { payment_type: 'pix', on_behalf_of: SANDBOX_SELLER_ID, amount: 500, currency: 'BRL' }), 201, transactionStrict),
        expectServed(await api.post('/v1/transactions', { payment_type: 'boleto', on_behalf_of: SANDBOX_SELLER_ID, customer: SANDBOX_BUYER_ID, amount: 900, currency: 'BRL' }), 201, transactionStrict),
      ];
      const texts = await withDb(fresh.dir, (db) => rows<{ doc: string }>(db, "SELECT doc FROM versions WHERE top = 'transactions' ORDER BY CAST(k AS INTEGER)").map((r) => r.doc));
      expect(texts).toHaveLength(3);
      const codes = await idCodesOf(fresh.dir);
      for (const [i, text] of texts.entries()) {
        expect(text.startsWith('['), text).toBe(true);
        const stored = docOfVersion(transactions, text, codes);
        expect(JSON.stringify(stored.txn)).toBe(JSON.stringify((await api.get(`/v1/transactions/${nth(sales, i).id}`)).body));
        expect(versionText(transactions, stored, codes)).toBe(text);
      }
      // The current version is the row itself: every field in a column of its own, no JSON of the
      // whole; a card's, a PIX's and a boleto's payment method as their values only, the URIs not kept at all.
      const kept = await withDb(fresh.dir, (db) => rows<Row>(db, 'SELECT * FROM transactions ORDER BY k'));
      expect(kept.map((row) => row.doc)).toEqual([null, null, null]);
      // Its JSON values (the payment method first) together in one column: one JSON.parse a row.
      const methods = kept.map((row) => (JSON.parse(String(row.json)) as unknown[])[0]);
      expect(methods.map((method) => (Array.isArray(method) ? method[0] : 'whole'))).toEqual([0, 1, 2]);
      for (const row of kept) {
        expect(row).not.toHaveProperty('uri');
        expect(row).not.toHaveProperty('payment_method');
        expect(String(row.json)).not.toContain(`"${String(row.id)}"`);
      }
      // A boleto's file URL is made from its id.
      expect(String(kept[2]?.json)).not.toContain('/boletos/');
    } finally {
      await fresh.close();
    }
  });

  it('a boleto paid and one canceled: their payment methods still as their values, read back as the API serves them', async () => {
    const fresh = await freshSandbox();
    try {
      const { api } = fresh;
      const boleto = { payment_type: 'boleto', on_behalf_of: SANDBOX_SELLER_ID, customer: SANDBOX_BUYER_ID, amount: 900, currency: 'BRL' };
      const paid = expectServed(await api.post('/v1/transactions', boleto), 201, transactionStrict);
      const canceled = expectServed(await api.post('/v1/transactions', { ...boleto, payment_method: { body_instructions: ['Não receber após o vencimento'] } }), 201, transactionStrict);
      expect((await api.post(`/v1/transactions/${paid.id}/approve`)).status).toBe(200);
      expect((await api.post(`/v1/boletos/cancellation/transactions/${canceled.id}`)).status).toBe(202);
      const served = [expectServed(await api.get(`/v1/transactions/${paid.id}`), 200, transactionStrict), expectServed(await api.get(`/v1/transactions/${canceled.id}`), 200, transactionStrict)];
      expect(served).toMatchObject([{ payment_method: { status: 'paid' } }, { payment_method: { status: 'canceled', body_instructions: ['Não receber após o vencimento'] } }]);
      const kept = await withDb(fresh.dir, (db) => rows<Row>(db, 'SELECT * FROM transactions ORDER BY k'));
      expect(kept.map((row) => (JSON.parse(String(row.json)) as unknown[][])[0]?.[0])).toEqual([2, 2]);
      // The latest version of each, kept for its event, is what the API serves.
      const texts = await withDb(fresh.dir, (db) => rows<{ doc: string }>(db, "SELECT doc FROM versions WHERE top = 'transactions' ORDER BY CAST(k AS INTEGER), version"));
      const codes = await idCodesOf(fresh.dir);
      for (const [i, txn] of served.entries()) {
        const latest = texts.map((t) => docOfVersion(transactions, t.doc, codes)).filter((stored) => (stored.txn as { id: string }).id === txn.id).at(-1) as Doc;
        expect(JSON.stringify(latest.txn), String(i)).toBe(JSON.stringify(txn));
      }
    } finally {
      await fresh.close();
    }
  });

  it('a version of another shape is kept as its document', () => {
    const odd = { seq: 1, created_ms: 0, txn: { id: 'x' } };
    const text = versionText(transactions, odd, codes);
    expect(text).toBe(JSON.stringify(odd));
    expect(docOfVersion(transactions, text, codes)).toEqual(odd);
  });
});

describe('instants', () => {
  const layout = [instant('at', 'at_ms')];

  it('come back as toISOString writes them, on either side of midnight and at the ends of its four-digit years', () => {
    const moments = [0, 999, 86_399_999, 86_400_000, 1_795_587_987_518, 1_795_587_987_518, 1_795_651_200_000, 253_402_300_799_999, 253_402_300_800_000];
    for (const ms of moments) {
      const at = new Date(ms).toISOString();
      const columns = pack(layout, { at }, codes);
      expect(columns?.get('at_ms')).toBe(ms);
      expect(unpack(layout, readBack(layout, columns ?? new Map()), codes)).toEqual({ at });
    }
  });
});

describe('fields made from others', () => {
  const card = [text('id'), fixed('resource', 'card'), text('brand'), derived('uri', (d) => `/cards/${String(d.id)}`), json('metadata')];
  const pix = [text('id'), fixed('resource', 'pix'), json('key')];
  const sale = [text('id'), oneOf('method', 'method', [card, pix]), tuples('lines', 'lines', [text('id'), fromParent('sale', 'id')])];
  const back = (value: Doc) => {
    const columns = pack(sale, value, codes);
    return columns && unpack(sale, readBack(sale, columns), codes);
  };

  it('keep a payment method of a known shape as its values, anything else as its JSON, and give each back the same', () => {
    const cardSale = { id: 's1', method: { id: 'c1', resource: 'card', brand: 'Visa', uri: '/cards/c1', metadata: { a: '1' } }, lines: [{ id: 'l1', sale: 's1' }] };
    expect(Object.fromEntries(pack(sale, cardSale, codes) ?? [])).toEqual({ id: 's1', method: '[0,"c1","Visa",{"a":"1"}]', lines: '[["l1"]]' });
    expect(JSON.stringify(back(cardSale))).toBe(JSON.stringify(cardSale));
    const pixSale = { id: 's2', method: { id: 'p1', resource: 'pix', key: { type: 'EVP' } }, lines: [] };
    expect(pack(sale, pixSale, codes)?.get('method')).toBe('[1,"p1",{"type":"EVP"}]');
    expect(JSON.stringify(back(pixSale))).toBe(JSON.stringify(pixSale));
    for (const method of [null, { id: 'b1', resource: 'boleto' }, { id: 'c1', resource: 'card', brand: 'Visa', uri: '/elsewhere', metadata: {} }]) {
      const other = { id: 's3', method, lines: [] };
      expect(pack(sale, other, codes)?.get('method')).toBe(JSON.stringify(method));
      expect(JSON.stringify(back(other))).toBe(JSON.stringify(other));
    }
  });

  it('keep the instants of a sale and its parts as milliseconds after the sale, read back after it whatever the key order', () => {
    const afterTheSale = (key: string) => since(key, key, (_doc, parent) => parent?.created_at);
    const stamped = [text('id'), fixed('resource', 'card'), afterTheSale('created_at')];
    const layout = [
      text('id'),
      readLast(oneOf('method', 'method', [stamped])),
      instant('created_at', 'created_ms'),
      since('updated_at', 'updated_ms', (d) => d.created_at),
      tuples('lines', 'lines', [text('id'), afterTheSale('at')]),
    ];
    const value = {
      id: 's1',
      method: { id: 'c1', resource: 'card', created_at: '2026-11-24T23:59:59.999Z' },
      created_at: '2026-11-25T02:40:54.116Z',
      updated_at: '2026-11-25T02:40:54.116Z',
      lines: [{ id: 'l1', at: '2026-11-25T02:40:54.116Z' }, { id: 'l2', at: '2026-12-01T00:00:00.000Z' }],
    };
    const columns = pack(layout, value, codes);
    expect(Object.fromEntries(columns ?? [])).toEqual({ id: 's1', method: '[0,"c1",-9654117]', created_ms: Date.parse(value.created_at), updated_ms: 0, lines: '[["l1",0],["l2",508745884]]' });
    expect(JSON.stringify(unpack(layout, readBack(layout, columns ?? new Map()), codes))).toBe(JSON.stringify(value));
    // Without the instant it counts from, or with a text that is no instant, the record is kept whole.
    expect(pack([since('at', 'at_ms', (d) => d.from)], { at: value.created_at }, codes)).toBeUndefined();
    expect(pack(layout, { ...value, updated_at: 'yesterday' }, codes)).toBeUndefined();
  });

  it('refuse a line that names another sale, or a URI that is not the one made: the record is then kept whole', () => {
    expect(pack(sale, { id: 's1', method: null, lines: [{ id: 'l1', sale: 'other' }] }, codes)).toBeUndefined();
    expect(pack(card, { id: 'c1', resource: 'card', brand: 'Visa', uri: '/cards/other', metadata: {} }, codes)).toBeUndefined();
  });
});
