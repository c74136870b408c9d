// api.call is typed by operation: the answer's type is inferred from the schema the client checks
// it against (src/provider/answer-types.ts), so no verb writes a resource's type again. The type
// checks below fail `tsc` (part of `npm test`) if the inference breaks; the calls run against the
// sandbox over real HTTP, so the types describe what really arrives.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import type { AnswerOf, ResourceOf } from '../../src/provider/answer-types.js';
import { SANDBOX_API_KEY, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { tempHome } from '../helpers/run.js';

let sandbox: SandboxHandle;
let home: { home: string; cleanup: () => void };
let client: ApiClient;

beforeAll(async () => {
  home = tempHome();
  sandbox = await startSandbox({ stateDir: home.home });
  client = new ApiClient({ baseUrl: sandbox.url, apiKey: SANDBOX_API_KEY, timeoutMs: 10_000, userAgent: 'payctl-test' });
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
  home.cleanup();
});

describe('api.call is typed by operation', () => {
  it('a list page holds the resource the operation lists, typed from its schema', async () => {
    const created = await client.call('transactions.create', {
      body: { amount: 1050, currency: 'BRL', payment_type: 'credit', on_behalf_of: SANDBOX_SELLER_ID, source: { usage: 'single_use', amount: 1050, currency: 'BRL', type: 'card', card: { holder_name: 'Maria Silva', expiration_month: '12', expiration_year: '2030', card_number: '4111111111111111', security_code: '123' } } },
    });
    expectTypeOf(created.id).toEqualTypeOf<string>();
    const page = await client.call('transactions.list', { query: { limit: 1 } });
    expectTypeOf(page).toEqualTypeOf<AnswerOf<'transactions.list'>>();
    expectTypeOf(page.items).toEqualTypeOf<ResourceOf<'transaction'>[]>();
    expectTypeOf<(typeof page.items)[number]['amount']>().toEqualTypeOf<string>();
    expect(page.items.map((tx) => tx.id)).toEqual([created.id]);
    expect(typeof page.items[0]?.amount).toBe('string');
  });

  it('one resource: the fields payctl relies on are typed as the schema makes them strict', async () => {
    const plans = await client.call('plans.list', { query: { limit: 1 } });
    expectTypeOf(plans.items).toEqualTypeOf<ResourceOf<'plan'>[]>();
    const webhooks = await client.call('webhooks.list');
    expectTypeOf(webhooks.items).toEqualTypeOf<ResourceOf<'webhook'>[]>();
    expect(Array.isArray(webhooks.items)).toBe(true);
  });

  it('a transaction: id, status and amount are strings, other fields may be null', () => {
    expectTypeOf<AnswerOf<'transactions.get'>['id']>().toEqualTypeOf<string>();
    expectTypeOf<AnswerOf<'transactions.get'>['status']>().toEqualTypeOf<string>();
    expectTypeOf<AnswerOf<'transactions.void'>['amount']>().toEqualTypeOf<string>();
    expectTypeOf<AnswerOf<'transactions.get'>['currency']>().toEqualTypeOf<string | null | undefined>();
    // A removal is the provider's acknowledgement, or nothing at all (204).
    expectTypeOf<AnswerOf<'cards.remove'>>().toEqualTypeOf<Partial<ResourceOf<'removal'>>>();
  });

  it('an endpoint made up on the spot (payctl api) still answers unknown', () => {
    const madeUp = () => client.call({ method: 'GET', path: '/x', marketplaceScoped: false });
    expectTypeOf<ReturnType<typeof madeUp>>().toEqualTypeOf<Promise<unknown>>();
  });
});
