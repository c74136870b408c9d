// Shared by the sandbox tests: a fresh state directory and server per test file, a small HTTP
// client that speaks to it exactly as the CLI would, and checks of the seed's field types.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import * as z from 'zod/mini';
import { SANDBOX_API_KEY, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { readStateFiles } from '../../src/sandbox/store.js';
import type { StoredState } from '../../src/sandbox/types.js';
import { expectFitsContract } from '../helpers/contract.js';

export interface Reply {
  status: number;
  headers: Headers;
  /** The body as served, unread: a test reads it with the schema of what it asked for (expectAnswer, pageOf, expectError). */
  body: unknown;
}

export interface Client {
  request(method: string, urlPath: string, body?: unknown, init?: { headers?: Record<string, string>; raw?: string }): Promise<Reply>;
  get(urlPath: string): Promise<Reply>;
  post(urlPath: string, body?: unknown): Promise<Reply>;
  put(urlPath: string, body?: unknown): Promise<Reply>;
  del(urlPath: string): Promise<Reply>;
}

export function basicAuth(key: string): string {
  return `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
}

export function client(baseUrl: string, key: string | null = SANDBOX_API_KEY): Client {
  const request: Client['request'] = async (method, urlPath, body, init = {}) => {
    const headers: Record<string, string> = { ...(key === null ? {} : { Authorization: basicAuth(key) }), ...init.headers };
    let payload: string | undefined = init.raw;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${baseUrl}${urlPath}`, { method, headers, body: payload });
    const text = await res.text();
    // Everything is JSON except the rendered receipt, which comes back as text.
    const json = (res.headers.get('content-type') ?? '').startsWith('application/json');
    const parsed = text ? (json ? JSON.parse(text) : text) : undefined;
    // Every successful answer meets the schema the CLI checks it against.
    if (res.ok && json) expectFitsContract(method, urlPath, parsed);
    return { status: res.status, headers: res.headers, body: parsed };
  };
  return {
    request,
    get: (p) => request('GET', p),
    post: (p, b) => request('POST', p, b),
    put: (p, b) => request('PUT', p, b),
    del: (p) => request('DELETE', p),
  };
}

export interface Fresh {
  dir: string;
  sandbox: SandboxHandle;
  api: Client;
  close(): Promise<void>;
}

export async function freshSandbox(now?: () => Date): Promise<Fresh> {
  const dir = await mkdtemp(path.join(tmpdir(), 'payctl-sandbox-test-'));
  const sandbox = await startSandbox(now ? { stateDir: dir, now } : { stateDir: dir });
  return {
    dir,
    sandbox,
    api: client(sandbox.url),
    close: async () => {
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The state as the sandbox's files hold it, read afresh; tests look at what was stored, not only served. */
export async function readStateFile(dir: string): Promise<StoredState> {
  const state = await readStateFiles(dir);
  if (state === undefined) throw new Error(`the sandbox in ${dir} has stored no state`);
  return state;
}

let cpfBase = 123_456_000;
/** A fresh CPF with valid check digits, so each test's buyer has a document of its own. */
export function nextCpf(): string {
  cpfBase += 1;
  const digits = String(cpfBase).padStart(9, '0').split('').map(Number);
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((acc, d, i) => acc + d * (length + 1 - i), 0);
    const rest = sum % 11;
    digits.push(rest < 2 ? 0 : 11 - rest);
  }
  return digits.join('');
}

export const VISA = '4111111111111111';
export const MASTERCARD = '5555555555554444';
export const DECLINED = '4000000000000002';
/** Unusual on purpose, so a search of the state files for it cannot hit by chance. */
export const CVV = '7391';

export function cardData(cardNumber = VISA, overrides: Record<string, unknown> = {}) {
  return {
    card_number: cardNumber,
    holder_name: 'MARIA SILVA',
    expiration_month: '12',
    expiration_year: String(new Date().getUTCFullYear() + 3),
    security_code: CVV,
    ...overrides,
  };
}

let refCounter = 0;
export function ref(prefix = 'test'): string {
  refCounter += 1;
  return `${prefix}-${process.pid}-${refCounter}`;
}

/** A direct-authorization body in the seed's shape (amount and currency inside source). */
export function directCardBody(cardNumber = VISA, cents = 1000, extra: Record<string, unknown> = {}) {
  return {
    payment_type: 'credit',
    on_behalf_of: SANDBOX_SELLER_ID,
    description: 'Pedido 123',
    reference_id: ref('card'),
    source: { usage: 'single_use', amount: cents, currency: 'BRL', type: 'card', card: cardData(cardNumber) },
    ...extra,
  };
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const HEX32 = /^[0-9a-f]{32}$/;
const DECIMAL = /^\d+\.\d{2}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `value` as an object's fields, failing the test when it is not an object. */
function fieldsOf(value: unknown, what: string): Record<string, unknown> {
  if (!isRecord(value)) throw new Error(`${what} should be an object, got ${JSON.stringify(value)}`);
  return value;
}

function expectNullableString(obj: Record<string, unknown>, key: string): void {
  expect(obj, `missing ${key}`).toHaveProperty(key);
  const value = obj[key];
  expect(value === null || typeof value === 'string', `${key} should be string or null, got ${JSON.stringify(value)}`).toBe(true);
}

function expectType(obj: Record<string, unknown>, key: string, type: 'string' | 'boolean' | 'object'): void {
  expect(obj, `missing ${key}`).toHaveProperty(key);
  const value = obj[key];
  if (type === 'object') expect(isRecord(value), `${key} should be an object`).toBe(true);
  else expect(typeof value, `${key}`).toBe(type);
}

/** Seed 2.4: every field a string, created_at a date-time. */
export function expectHistoryEntry(answer: unknown, transactionId: string): void {
  const entry = fieldsOf(answer, 'a history entry');
  for (const key of [
    'id',
    'transaction',
    'amount',
    'operation_type',
    'status',
    'response_code',
    'response_message',
    'authorization_code',
    'authorizer_id',
    'authorization_nsu',
    'gatewayResponseTime',
    'authorizer',
  ]) {
    expectType(entry, key, 'string');
  }
  expect(entry.id).toMatch(HEX32);
  expect(entry.transaction).toBe(transactionId);
  expect(entry.amount).toMatch(DECIMAL);
  expect(entry.created_at).toMatch(ISO_MS);
}

/** Seed 2.1: every field present with the seed's type (null where there is no value). */
export function expectTransactionShape(answer: unknown): void {
  const txn = fieldsOf(answer, 'a transaction');
  for (const key of ['id', 'resource', 'status', 'amount', 'original_amount', 'currency', 'payment_type', 'on_behalf_of', 'statement_descriptor', 'uri', 'fees', 'created_at', 'updated_at']) {
    expectType(txn, key, 'string');
  }
  for (const key of [
    'description',
    'transaction_number',
    'gateway_authorizer',
    'app_transaction_uid',
    'refunds',
    'rewards',
    'discounts',
    'pre_authorization',
    'sales_receipt',
    'customer',
    'source',
    'payment_authorization',
    'expected_on',
    'reference_id',
  ]) {
    expectNullableString(txn, key);
  }
  for (const key of ['refunded', 'voided', 'captured']) expectType(txn, key, 'boolean');
  for (const key of ['payment_method', 'fee_details', 'metadata']) expectType(txn, key, 'object');
  expect(txn).toHaveProperty('installment_plan');
  expect(txn.installment_plan === null || typeof txn.installment_plan === 'object').toBe(true);
  const history = txn.history;
  expect(Array.isArray(history)).toBe(true);
  expect(txn.id).toMatch(HEX32);
  expect(txn.resource).toBe('transaction');
  expect(txn.amount).toMatch(DECIMAL);
  expect(txn.original_amount).toMatch(DECIMAL);
  expect(txn.fees).toMatch(DECIMAL);
  expect(txn.created_at).toMatch(ISO_MS);
  expect(txn.updated_at).toMatch(ISO_MS);
  if (txn.expected_on !== null) expect(txn.expected_on).toMatch(ISO_MS);
  expect(txn.uri).toBe(`/v1/marketplaces/${String(txn.uri).split('/')[3]}/transactions/${String(txn.id)}`);
  for (const entry of Array.isArray(history) ? history : []) expectHistoryEntry(entry, String(txn.id));
}

/** Seed 2.3: the card inside a transaction shows both first4_digits and last4_digits. */
export function expectCardPaymentMethod(answer: unknown): void {
  const pm = fieldsOf(answer, 'a card payment method');
  for (const key of ['id', 'resource', 'card_brand', 'first4_digits', 'last4_digits', 'expiration_month', 'expiration_year', 'holder_name', 'fingerprint', 'uri', 'created_at', 'updated_at']) {
    expectType(pm, key, 'string');
  }
  for (const key of ['description', 'customer']) expectNullableString(pm, key);
  for (const key of ['is_active', 'is_valid', 'is_verified']) expectType(pm, key, 'boolean');
  expectType(pm, 'metadata', 'object');
  expect(pm.resource).toBe('card');
  expect(pm.first4_digits).toMatch(/^\d{4}$/);
  expect(pm.last4_digits).toMatch(/^\d{4}$/);
  expect(pm.id).toMatch(HEX32);
}

/** Seed 2.2, every field with a value: a boleto's, or a bolepix's (which adds its own). */
export function expectBoletoPaymentMethod(answer: unknown, resource: 'boleto' | 'bolepix' = 'boleto'): void {
  const pm = fieldsOf(answer, `a ${resource} payment method`);
  for (const key of [
    'id',
    'service_boleto_id',
    'resource',
    'description',
    'reference_number',
    'document_number',
    'expiration_date',
    'payment_limit_date',
    'recipient',
    'bank_code',
    'customer',
    'sequence',
    'url',
    'barcode',
    'created_at',
    'updated_at',
    'status',
  ]) {
    expectType(pm, key, 'string');
  }
  expectNullableString(pm, 'address');
  expect(pm.resource).toBe(resource);
  expect(pm.id).toMatch(HEX32);
  expect(pm.service_boleto_id).toMatch(HEX32);
  expect(pm.reference_number).toMatch(/^\d+$/);
  expect(pm.sequence).toMatch(/^\d+$/);
  expect(pm.expiration_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(pm.payment_limit_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(pm.barcode).toMatch(/^\d{44}$/);
}

/** The provider's error answer: what went wrong, by category and type, and for a 400 the reasons. */
const errorAnswer = z.object({
  error: z.looseObject({ status: z.string(), status_code: z.number(), category: z.string(), type: z.string(), message: z.string(), reasons: z.optional(z.array(z.string())) }),
});

/** An error answer of this status and category; returns its error. */
/** An answer of this status, read with `schema` (the provider's strict description): the test fails when the body is not of it. */
export function expectAnswer<S extends z.ZodMiniType>(reply: Reply, status: number, schema: S): z.infer<S> {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  return z.parse(schema, reply.body);
}

/** A list page whose items are each read with `item`. */
export function pageOf<S extends z.ZodMiniType>(item: S) {
  return z.looseObject({ items: z.array(item), has_more: z.optional(z.boolean()), total: z.optional(z.number()) });
}

export function expectError(reply: Reply, status: number, category: string): z.infer<typeof errorAnswer>['error'] {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  const { error } = z.parse(errorAnswer, reply.body);
  expect(error).toMatchObject({ status_code: status, category });
  return error;
}

/** A 400 invalid_parameter giving exactly these reasons, in this order. */
export function expectReasons(reply: Reply, reasons: string[]): void {
  expect(expectError(reply, 400, 'invalid_parameter').reasons).toEqual(reasons);
}

export { HEX32, ISO_MS };

function fits<S extends z.ZodMiniType>(schema: S, value: unknown): value is z.infer<S> {
  return z.safeParse(schema, value).success;
}

/**
 * An answer of this status that fits `schema`, returned as it was served: unlike expectAnswer's
 * parse, its keys keep the order the sandbox sent them in, for tests that compare answers whole.
 */
export function expectServed<S extends z.ZodMiniType>(reply: Reply, status: number, schema: S): z.infer<S> {
  const body: unknown = reply.body;
  expectAnswer(reply, status, schema);
  if (!fits(schema, body)) throw new Error(`not of the schema: ${JSON.stringify(body)}`);
  return body;
}

/** The `index`th of `list`: the test fails here, naming how many there were, when it has fewer. */
export function nth<T>(list: readonly T[], index: number): T {
  const value = list[index];
  if (value === undefined) throw new Error(`expected at least ${index + 1} of them, got ${list.length}`);
  return value;
}

/** A list page that says how many items match in all, for tests that count them. */
export function countedPageOf<S extends z.ZodMiniType>(item: S) {
  return z.extend(pageOf(item), { total: z.number() });
}
