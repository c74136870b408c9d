// Shared by the command tests: card flags, dates relative to today, and assertions that check a
// run's exit code, stdout and stderr together, so no run goes unchecked.
import { expect } from 'vitest';
import * as z from 'zod/mini';
import { SANDBOX_MARKETPLACE_ID } from '../../src/provider/sandbox-account.js';
import type { PaymentMethod, Transaction } from '../../src/sandbox/types.js';
import { findItemMismatch, findMismatch, resourceSchemas } from '../../src/provider/schemas/index.js';
import { dryRunShown, groupRows, printedBy, type DryRunShown, type PrintedBy } from '../helpers/printed.js';
export type { ServedResource } from '../helpers/printed.js';
import { recordingServer, type RecordedRequest, type Reply, type Route } from '../helpers/recording-server.js';
import { payctl, type RunOptions, type RunResult } from '../helpers/run.js';

/** An expiry year that is always a few years ahead, so the suite never expires. */
export const EXP_YEAR = String(new Date().getUTCFullYear() + 3);
export const CVV = '987';
export const VISA = '4111111111111111';
export const MASTERCARD = '5555555555554444';
export const DECLINED = '4000000000000002';

export function cardFlags(number = VISA, overrides: Record<string, string> = {}): string[] {
  const flags: Record<string, string> = {
    '--card-number': number,
    '--holder-name': 'Maria Silva',
    '--exp-month': '12',
    '--exp-year': EXP_YEAR,
    '--cvv': CVV,
    ...overrides,
  };
  return Object.entries(flags).flatMap(([flag, value]) => [flag, value]);
}

export function cardJson(number = VISA): string {
  return JSON.stringify({ card_number: number, holder_name: 'Maria Silva', expiration_month: '12', expiration_year: EXP_YEAR, security_code: CVV });
}

/** A UTC calendar date `offset` days from today (the sandbox runs on the real clock). */
export function day(offset = 0): string {
  return new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
}

export const SANDBOX_LINE = 'SANDBOX (embedded test service: no real money moves)\n';
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const MONEY = /^\d+\.\d{2}$/;
export const ANSI = /\x1b\[/;
export const TX_URL = `/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/transactions`;

/** Type-only: the words a run was given. */
declare const ranWith: unique symbol;
/** A run, typed by the words it was given: what they print is read by them (see expectJson). */
export interface Ran<A extends readonly string[]> extends RunResult {
  readonly [ranWith]?: A;
}
/** The words of each run, beside it rather than in it: a test compares a run's result whole. */
const wordsOf = new WeakMap<RunResult, readonly string[]>();

export async function run<const A extends readonly string[]>(home: string, args: A, options: Omit<RunOptions, 'home'> = {}): Promise<Ran<A>> {
  const result = await payctl([...args], { home, ...options });
  wordsOf.set(result, args);
  return result;
}

/**
 * Exit 0, stdout is one JSON document (and nothing else); returns it. A run whose words name a
 * resource (`transfers list`, see printed.ts) returns it as that resource, checked against its schema;
 * any other is unknown until the test reads it.
 */
export function expectJson<A extends readonly string[]>(result: Ran<A>): PrintedBy<A>;
export function expectJson(result: RunResult): unknown;
export function expectJson(result: RunResult): unknown {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout.endsWith('\n')).toBe(true);
  const parsed: unknown = JSON.parse(result.stdout);
  const words = wordsOf.get(result);
  const shape = words && printedBy(words);
  if (shape === 'dry run') expect(dryRunShown.safeParse(parsed).error).toBeUndefined();
  else if (shape === 'groups') expect(groupRows.safeParse(parsed).error).toBeUndefined();
  else if (shape) {
    const schema = resourceSchemas[shape.resource];
    const mismatch = shape.list ? (Array.isArray(parsed) ? findItemMismatch(schema, parsed) : 'not a list') : findMismatch(schema, parsed);
    expect(mismatch, `${words?.join(' ')} printed ${result.stdout.slice(0, 200)}`).toBeUndefined();
  }
  return parsed;
}

/** `value`, which the run must have filled in: the test fails here, naming `what`, when it is null or missing. */
export function present<T>(value: T | null | undefined, what = 'a value'): T {
  if (value === null || value === undefined) throw new Error(`expected ${what}, got ${String(value)}`);
  return value;
}

/** A dry run's one output, checked: the request that would have been sent. */
export function expectDryRun(result: RunResult): DryRunShown {
  return z.parse(dryRunShown, expectJson(result));
}

/** A failure: this exit code, nothing on stdout, and stderr ending in one `error:` line containing every fragment. */
export function expectError(result: RunResult, code: number, ...fragments: string[]): string {
  expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(code);
  expect(result.stdout).toBe('');
  const { text } = lastError(result.stderr);
  expect(text.startsWith('error: '), result.stderr).toBe(true);
  for (const fragment of fragments) expect(text).toContain(fragment);
  expect(result.stderr).not.toMatch(/^\s+at /m); // no stack trace without --debug
  return text;
}

/**
 * The error a run ended with, as one line (`text`), and as written (`block`): on a terminal an
 * error is wrapped between words, its later lines under the text after "error: ".
 */
export function lastError(stderr: string): { text: string; block: string } {
  const lines = stderr.split('\n').filter(Boolean);
  const start = lines.findLastIndex((line) => line.startsWith('error: '));
  const block = start < 0 ? lines.slice(-1) : [lines[start] as string, ...lines.slice(start + 1).filter((line, i, rest) => rest.slice(0, i + 1).every((l) => l.startsWith('       ')))];
  return { text: block.map((line, i) => (i === 0 ? line : line.trim())).join(' '), block: block.join('\n') };
}

/** Rejected before anything was sent: exit 2, no SANDBOX notice (the service was never called), one error (wrapped on a terminal). */
export function expectUsage(result: RunResult, ...fragments: string[]): string {
  const line = expectError(result, 2, ...fragments);
  expect(result.stderr).toBe(`${lastError(result.stderr).block}\n`);
  return line;
}

/** Money as the status lines show it: 1234.5 → "R$ 1.234,50". */
export function brl(amount: string): string {
  const [whole = '0', fraction = ''] = amount.split('.');
  return `R$ ${whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${fraction.padEnd(2, '0')}`;
}

/** A successful create: 0, the transaction as the only thing on stdout, SANDBOX + one status line on stderr. */
export function expectCreated(result: Ran<readonly ['transactions', 'create', ...string[]]>, status: string): Transaction {
  const tx = expectJson(result);
  expect(tx.status).toBe(status);
  expect(result.stderr).toBe(`${SANDBOX_LINE}Created transaction ${tx.id} (${status}, ${brl(tx.amount)})\n`);
  return tx;
}

export async function create(home: string, args: string[], status = 'succeeded'): Promise<Transaction> {
  return expectCreated(await run(home, ['transactions', 'create', ...args]), status);
}

export const createCard = (home: string, amount = '10.50', extra: string[] = []) =>
  create(home, ['--amount', amount, ...cardFlags(), ...extra]);
export const createPreAuth = (home: string, amount = '10.00') => create(home, ['--amount', amount, ...cardFlags(), '--no-capture'], 'pre_authorized');
export const createPix = (home: string, amount = '30.00', extra: string[] = []) =>
  create(home, ['--payment-type', 'pix', '--amount', amount, ...extra], 'pending');

/** Every transaction in the sandbox (newest first), checked like any other run. */
export async function listAll(home: string, extra: string[] = []): Promise<Transaction[]> {
  const result = await run(home, ['transactions', 'list', '--all', ...extra]);
  const items = expectJson(result);
  expect(Array.isArray(items)).toBe(true);
  expect(result.stderr).toBe(items.length === 0 ? 'no transactions match\n' : '');
  return items;
}

/** The sale's payment method, checked to be of this kind (card, boleto, bolepix or pix). */
export function paidWith<K extends PaymentMethod['resource']>(tx: Transaction, resource: K): Extract<PaymentMethod, { resource: K }> {
  expect(tx.payment_method.resource).toBe(resource);
  return tx.payment_method as Extract<PaymentMethod, { resource: K }>;
}

export async function getTx(home: string, id: string): Promise<Transaction> {
  const result = await run(home, ['transactions', 'get', id]);
  const tx = expectJson(result);
  expect(result.stderr).toBe('');
  return tx;
}

/** The marketplace of the live-looking profile that `runAgainst` gives payctl. */
export const RECORDED_MARKETPLACE = 'a'.repeat(32);

/**
 * One run against a recording server that answers with `route` (stopped after the run): the result
 * and what was sent. A route of no replies ([]) is a service that must be asked nothing. `tty`:
 * as if on a terminal.
 */
export async function runAgainst(
  home: string,
  args: string[],
  route: Route | Reply[],
  options: Pick<RunOptions, 'tty' | 'columns'> & { env?: Record<string, string> } = {},
): Promise<{ result: RunResult; requests: RecordedRequest[] }> {
  const server = await recordingServer(route);
  try {
    const { env, ...rest } = options;
    const result = await run(home, args, { ...rest, env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_live_abcdefgh12345678', PAYCTL_MARKETPLACE_ID: RECORDED_MARKETPLACE, ...env } });
    return { result, requests: server.requests };
  } finally {
    await server.close();
  }
}
