// The seed's tables, field by field (sections 2.1–2.6, and the request tables of 4.1–4.3): each
// request field leaves through a flag with the seed's type, and each response field comes back
// from the sandbox, through the CLI (-o json), present, with the seed's type, and null only where
// tables.ts says the real service sends null. Every body and answer is also held to the CLI's own
// zod schemas (src/provider/schemas), the contract the sandbox and the client share.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf } from '../../src/provider/schemas/answers.js';
import { findAnswerMismatch } from '../../src/provider/schemas/index.js';
import { checkRequestBody, type requestSchemas } from '../../src/provider/schemas/requests.js';
import type { Operation } from '../../src/provider/endpoints.js';
import { SANDBOX_API_KEY, SANDBOX_BUYER_ID, SANDBOX_CARD_ID, SANDBOX_MARKETPLACE_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { recordingProxy, type RecordingProxy } from '../helpers/recording-proxy.js';
import { payctl, tempHome } from '../helpers/run.js';
import {
  boletoPaymentMethod,
  boletoTransaction,
  cardPaymentMethod,
  cardToken,
  cardTokenRequest,
  cardTransaction,
  directCardRequest,
  historyEntry,
  nullableFields,
  simpleBoletoRequest,
  subscription,
  subscriptionRequest,
  type SeedField,
  type SeedTable,
  type SeedType,
} from './tables.js';

const VISA = '4111111111111111';
const EXP_YEAR = String(new Date().getUTCFullYear() + 3);
const card = ['--card-number', VISA, '--holder-name', 'Maria Silva', '--exp-month', '12', '--exp-year', EXP_YEAR, '--cvv', '123'];

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function hasType(value: unknown, type: SeedType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'date':
      return typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(value));
    case 'date-time':
      return typeof value === 'string' && DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));
  }
}

/** Every field of the list present in `value`, of its type, null only where allowed; nested lists too. */
function expectSeedFields(value: unknown, fields: SeedField[], where: string): void {
  expect(hasType(value, 'object'), `${where} is an object`).toBe(true);
  const object = value as Record<string, unknown>;
  for (const field of fields) {
    const at = `${where}.${field.name}`;
    expect(object, `${at} is missing`).toHaveProperty(field.name);
    const found = object[field.name];
    if (found === null) {
      expect(field.nullWhen, `${at} is null, where the seed's sample has a value`).toBeDefined();
      continue;
    }
    expect(hasType(found, field.type), `${at} should be ${field.type}, got ${JSON.stringify(found)}`).toBe(true);
    if (!field.fields) continue;
    if (field.type === 'array') {
      expect((found as unknown[]).length, `${at} is empty`).toBeGreaterThan(0);
      (found as unknown[]).forEach((item, i) => expectSeedFields(item, field.fields as SeedField[], `${at}[${i}]`));
    } else {
      expectSeedFields(found, field.fields, at);
    }
  }
}

function expectAnswer(operation: Operation, answer: unknown, table: SeedTable, where = table.id): void {
  const shape = answerOf(operation);
  if (!shape) throw new Error(`${operation} has no answer schema`);
  expect(findAnswerMismatch(shape, answer), `${operation}'s answer meets the CLI's ${shape.resource} schema`).toBeUndefined();
  expectSeedFields(answer, table.fields, where);
}

function expectRequest(operation: keyof typeof requestSchemas, body: unknown, table: SeedTable): void {
  expect(checkRequestBody(operation, body), `the ${operation} body meets its request schema`).toBeUndefined();
  expectSeedFields(body, table.fields, table.id);
}

let dir: string;
let sandbox: SandboxHandle;
let proxy: RecordingProxy;
let home: { home: string; cleanup: () => void };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'payctl-seed-tables-'));
  sandbox = await startSandbox({ stateDir: dir });
  proxy = await recordingProxy(sandbox.url);
  home = tempHome();
});
afterAll(async () => {
  await proxy.close();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
  home.cleanup();
});

/** payctl against the sandbox through the proxy: the JSON it printed, and the requests it made. */
async function cli(args: string[]): Promise<{ out: any; sent: typeof proxy.requests }> {
  const before = proxy.requests.length;
  const result = await payctl([...args, '-o', 'json'], {
    home: home.home,
    env: { PAYCTL_BASE_URL: proxy.url, PAYCTL_API_KEY: SANDBOX_API_KEY, PAYCTL_MARKETPLACE_ID: SANDBOX_MARKETPLACE_ID, PAYCTL_SELLER_ID: SANDBOX_SELLER_ID },
  });
  expect(result.code, result.stderr).toBe(0);
  return { out: JSON.parse(result.stdout), sent: proxy.requests.slice(before) };
}

function posted(sent: typeof proxy.requests, suffix: string): any {
  const request = sent.find((r) => r.method === 'POST' && r.path.endsWith(suffix));
  expect(request, `a POST to …${suffix}`).toBeDefined();
  return request!.json;
}

describe('seed tables, field by field', () => {
  let boleto: { out: any; sent: typeof proxy.requests };
  let direct: { out: any; sent: typeof proxy.requests };

  beforeAll(async () => {
    boleto = await cli(['transactions', 'create', '--payment-type', 'boleto', '--amount', '150', '--customer', SANDBOX_BUYER_ID, '--description', 'Pedido 77', '--reference-id', 'seed-boleto-77']);
    direct = await cli(['transactions', 'create', '--amount', '10.50', ...card, '--installments', '2', '--description', 'Pedido 78', '--reference-id', 'seed-card-78']);
  });

  it('4.1 simple boleto request: every field sent, with the seed’s types (amount as numeric text)', () => {
    const body = posted(boleto.sent, '/transactions');
    expectRequest('transactions.create', body, simpleBoletoRequest);
    expect(body).toMatchObject({ customer: SANDBOX_BUYER_ID, amount: '15000', currency: 'BRL', description: 'Pedido 77', payment_type: 'boleto', reference_id: 'seed-boleto-77' });
  });

  it('4.1 direct card authorization request: every field sent, with the seed’s types (capture as text)', () => {
    const body = posted(direct.sent, '/transactions');
    expectRequest('transactions.create', body, directCardRequest);
    expect(body).toMatchObject({
      description: 'Pedido 78',
      payment_type: 'credit',
      capture: 'true',
      reference_id: 'seed-card-78',
      source: { usage: 'single_use', amount: 1050, currency: 'BRL', type: 'card', installment_plan: { number_installments: 2 } },
    });
    expect(body.source.card).toMatchObject({ card_number: VISA, holder_name: 'Maria Silva', expiration_month: '12', expiration_year: EXP_YEAR, security_code: '123' });
  });

  it('2.1 boleto transaction: every field of the table, with the seed’s type', () => {
    expectAnswer('transactions.create', boleto.out, boletoTransaction);
    expect(boleto.out.status).toBe('pending');
  });

  it('2.2 boleto payment method, inside a boleto transaction', () => {
    expectSeedFields(boleto.out.payment_method, boletoPaymentMethod.fields, '2.2 boleto payment method');
  });

  it('2.2 boleto payment method, inside a boleto-with-PIX (bolepix) transaction, with its QR image', async () => {
    const { out } = await cli(['transactions', 'create', '--payment-type', 'bolepix', '--amount', '80', '--customer', SANDBOX_BUYER_ID, '--reference-id', 'seed-bolepix-79']);
    expectAnswer('transactions.create', out, { id: '2.1 bolepix transaction', fields: [{ name: 'payment_method', type: 'object', fields: boletoPaymentMethod.fields }] });
    const qr = Buffer.from(out.payment_method.base64, 'base64');
    expect(qr.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  it('2.1 card transaction (direct authorization): every field of its narrower set', () => {
    expectAnswer('transactions.create', direct.out, cardTransaction);
    expect(direct.out.status).toBe('succeeded');
  });

  it('2.3 card payment method, inside a card transaction', () => {
    expectSeedFields(direct.out.payment_method, cardPaymentMethod.fields, '2.3 card payment method');
  });

  it('2.3 card payment method of a card on file: its buyer is named', async () => {
    const { out } = await cli(['transactions', 'create', '--amount', '5', '--card', SANDBOX_CARD_ID, '--reference-id', 'seed-card-on-file']);
    expectSeedFields(out.payment_method, cardPaymentMethod.fields, '2.3 card payment method');
    expect(out.payment_method.customer).toBe(SANDBOX_BUYER_ID);
  });

  it('2.4 history entry: every entry of a card and a boleto sale', () => {
    for (const txn of [direct.out, boleto.out]) {
      expect(txn.history.length).toBeGreaterThan(0);
      txn.history.forEach((entry: unknown, i: number) => expectSeedFields(entry, historyEntry.fields, `${historyEntry.id} [${txn.payment_type} ${i}]`));
    }
  });

  it('4.2 card token request and 2.5 card token', async () => {
    const { out, sent } = await cli(['cards', 'tokenize', ...card]);
    const body = posted(sent, '/cards/tokens');
    expectRequest('cards.tokenize', body, cardTokenRequest);
    expect(body).toEqual({ holder_name: 'Maria Silva', expiration_month: '12', expiration_year: EXP_YEAR, card_number: VISA, security_code: '123' });
    expectAnswer('cards.tokenize', out, cardToken);
    expect(out.card).not.toHaveProperty('last4_digits');
  });

  describe('2.6 subscription and 4.3', () => {
    let plan: string;
    let today: string;

    beforeAll(async () => {
      const made = await cli(['plans', 'create', '--name', 'Plano Mensal', '--description', 'Plano mensal de teste', '--amount', '29.90', '--frequency', 'monthly', '--payment-method', 'credit', '--payment-method', 'boleto']);
      plan = made.out.uuid;
      today = (await cli(['sandbox', 'clock'])).out.now.slice(0, 10);
    });

    it('4.3 subscription request: every field sent, with the seed’s types; 2.6 answer', async () => {
      const due = nextDay(today, 5);
      const { out, sent } = await cli([
        'subscriptions', 'create', '--plan', plan, '--customer', SANDBOX_BUYER_ID, '--payment-method', 'credit', '--card', SANDBOX_CARD_ID,
        '--due-date', due, '--expiration-date', nextDay(today, 400), '--amount', '24.90', '--currency', 'BRL',
      ]);
      const body = posted(sent, '/recurrence_subscriptions');
      expectRequest('subscriptions.create', body, subscriptionRequest);
      expect(body).toMatchObject({ plan, customer: SANDBOX_BUYER_ID, payment_method: 'credit', due_date: due, amount: 2490, currency: 'BRL', card: SANDBOX_CARD_ID });
      expectAnswer('subscriptions.create', out, subscription);

      const suspended = await cli(['subscriptions', 'suspend', out.uuid, '--yes']);
      expectAnswer('subscriptions.suspend', suspended.out, subscription);
      expect(suspended.out.suspended_at).not.toBeNull();
    });

    it('2.6 a boleto subscription: paid by boleto, no card', async () => {
      const { out, sent } = await cli(['subscriptions', 'create', '--plan', plan, '--customer', SANDBOX_BUYER_ID, '--payment-method', 'boleto']);
      expect(posted(sent, '/recurrence_subscriptions')).not.toHaveProperty('card');
      expectAnswer('subscriptions.create', out, subscription);
      expect(out).toMatchObject({ payment_method: 'boleto', card: null });
    });
  });
});

describe('the sandbox guide names every field the sandbox leaves null', () => {
  it('its "Fields left null" table lists exactly the fields tables.ts allows to be null', () => {
    const guide = readFileSync(new URL('../../docs/sandbox.md', import.meta.url), 'utf8');
    const section = guide.split('\n## Fields left null\n')[1]?.split('\n#')[0] ?? '';
    const rows = [...section.matchAll(/^\| (\d\.\d [^|]+?) \| `([^`]+)` \| ([^|]+?) \|$/gm)].map((m) => [`${m[1]} / ${m[2]}`, m[3]]);
    expect(rows.sort()).toEqual([...nullableFields()].sort());
  });
});

function nextDay(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
