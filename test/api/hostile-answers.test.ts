// Answers that are not what was asked for: a body of the wrong shape, no body, JSON that is not an
// object, a redirect or a status outside HTTP's success and error classes. None of them may end in
// exit 1 or print "undefined"; a money-moving request that got one has an unknown outcome
// (UncertainOutcomeError, which its command reconciles), anything else is exit 8.
import { describe, expect } from 'vitest';
import { UncertainOutcomeError, type RequestInput } from '../../src/api/client.js';
import type { Operation } from '../../src/provider/endpoints.js';
import { ApiError, NetworkError, ValidationError } from '../../src/errors.js';
import { test } from '../helpers/fixtures.js';
import { payctl, type RunResult } from '../helpers/run.js';
import type { RecordingServer, Reply } from '../helpers/recording-server.js';

const TX = '0123456789abcdef0123456789abcdef';
const MKT = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const TRANSACTION = { id: TX, status: 'succeeded', amount: '10.00', history: [{ id: 'h1', operation_type: 'authorization' }] };

/**
 * `service.call` is the outcome of one operation against a server that always gives `reply`: its
 * result or its error (no replies, [], is a server that must be asked nothing).
 * `service.getThroughCli` is `payctl transactions get` against one; `service.server` the last one.
 */
const it = test.extend<{
  service: {
    call: (reply: Reply | Reply[], operation: Operation, input?: RequestInput) => Promise<{ result?: unknown; error?: Error }>;
    getThroughCli: (reply: Reply) => Promise<RunResult>;
    serve: (replies: Reply[]) => Promise<RecordingServer>;
    readonly server: RecordingServer;
  };
}>({
  service: async ({ home, recording, apiClient }, use) => {
    let server: RecordingServer | undefined;
    await use({
      call: async (reply, operation, input = {}) => {
        server = await recording(Array.isArray(reply) ? reply : [reply]);
        const client = apiClient(server.url, { marketplaceId: MKT });
        try {
          return { result: await client.call(operation, input) };
        } catch (error) {
          return { error: error as Error };
        }
      },
      getThroughCli: async (reply) => {
        server = await recording([reply]);
        return payctl(['transactions', 'get', TX], { home, env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_test_x', PAYCTL_MARKETPLACE_ID: '' } });
      },
      serve: async (replies) => (server = await recording(replies)),
      get server() {
        return server ?? expect.fail('no server yet');
      },
    });
  },
});

const params = { params: { id: TX } };
/** Bodies that pass payctl's own check of what it sends (schemas/requests.ts). */
const VOID_BODY = { on_behalf_of: 'f'.repeat(32), amount: 100 };
const CREATE_BODY = { amount: 1000, currency: 'BRL', payment_type: 'pix', on_behalf_of: 'f'.repeat(32) };

describe('answers of the wrong shape', () => {
  it('a void answered without an id: outcome unknown, and the message says what is wrong', async ({ service }) => {
    const { error } = await service.call({ status: 200, body: { status: 'succeeded', amount: '10.00' } }, 'transactions.void', params);
    expect(error).toBeInstanceOf(UncertainOutcomeError);
    expect(error!.message).toBe(`the service's answer to POST ${service.server.url}/v1/marketplaces/${MKT}/transactions/${TX}/void is not a transaction (id: expected a string)`);
  });

  it('a read answered with the wrong shape is exit 8, not an unknown outcome', async ({ service }) => {
    const { error } = await service.call({ status: 200, body: { id: TX, status: 'succeeded', amount: 10 } }, 'transactions.get', params);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(UncertainOutcomeError);
    expect((error as NetworkError).exitCode).toBe(8);
    expect(error!.message).toBe(
      `the service's answer to GET ${service.server.url}/v1/marketplaces/${MKT}/transactions/${TX} is not a transaction (amount: expected a decimal string like "10.00", got a number)`,
    );
  });

  it('every field at fault is named, nested ones with their path, values never echoed', async ({ service }) => {
    const { error } = await service.call(
      { status: 200, body: { id: '', status: 'succeeded', amount: '4111111111111111x', history: [{ id: 7 }] } },
      'transactions.capture',
      params,
    );
    expect(error).toBeInstanceOf(UncertainOutcomeError);
    expect(error!.message).toMatch(
      /is not a transaction \(id: expected an id of 1 to 128 characters without spaces or slashes; amount: expected a decimal string like "10\.00"; history\[0\]\.id: expected a string, got a number\)$/,
    );
    // The card-like value, not any 4111 (the server's random port may hold those digits).
    expect(error!.message).not.toContain('4111111111111111');
  });

  it('a well-formed transaction comes back as sent: unknown fields, nesting and order unchanged', async ({ service }) => {
    const body = { zeta: 1, ...TRANSACTION, payment_method: { card_brand: 'Visa', extra: [1, { deep: null }] }, amount: '-1.5' };
    const { result, error } = await service.call({ status: 201, body }, 'transactions.create', { body: CREATE_BODY });
    expect(error).toBeUndefined();
    expect(JSON.stringify(result)).toBe(JSON.stringify(body));
  });

  it('an invoice amount is integer cents; a decimal string is refused', async ({ service }) => {
    const { error } = await service.call({ status: 200, body: { id: 'inv1', status: 'paid', amount: '1.00' } }, 'invoices.get', params);
    expect(error!.message).toMatch(/ is not an invoice \(amount: expected an integer number of cents, got a string\)$/);
    expect((await service.call({ status: 200, body: { id: 'inv1', status: 'paid', amount: 100 } }, 'invoices.get', params)).error).toBeUndefined();
  });

  it("invoice refund and approve move money: a wrong shape leaves the outcome unknown", async ({ service }) => {
    const refund = await service.call({ status: 200, body: { id: 'inv1', status: 'canceled', amount: 1.5 } }, 'invoices.refund', params);
    expect(refund.error).toBeInstanceOf(UncertainOutcomeError);
    expect(refund.error!.message).toMatch(/^the service's answer to DELETE .*\/invoices\/.*\/void is not an invoice \(amount: expected an integer number of cents, got a number\)$/);
    await service.server.close();
    const approve = await service.call({ status: 200, body: [] }, 'invoices.approve', params);
    expect(approve.error).toBeInstanceOf(UncertainOutcomeError);
    expect(approve.error!.message).toMatch(/is not an invoice \(expected an object, got an array\)$/);
  });

  it('a boleto cancellation answer is the service own {status, message}', async ({ service }) => {
    const good = { status: 'Requested', message: 'Cancellation request created successfully', transaction_id: TX };
    expect((await service.call({ status: 202, body: good }, 'boletos.cancel', params)).result).toEqual(good);
    await service.server.close();
    const { error } = await service.call({ status: 202, body: { ok: true } }, 'boletos.cancel', params);
    expect(error).toBeInstanceOf(UncertainOutcomeError);
    expect(error!.message).toMatch(/ is not a boleto cancellation \(status: expected a string; message: expected a string\)$/);
  });

  it('an error body under HTTP 200 is still that error, not a shape mismatch', async ({ service }) => {
    const { error } = await service.call({ status: 200, body: { error: { status_code: 404, category: 'resource_not_found', message: 'gone' } } }, 'transactions.get', params);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).exitCode).toBe(5);
  });
});

describe('answers with no body or a body that is not an object', () => {
  it('204 with no body to a money-moving operation: outcome unknown', async ({ service }) => {
    const { error } = await service.call({ status: 204 }, 'transactions.capture', params);
    expect(error).toBeInstanceOf(UncertainOutcomeError);
    expect(error!.message).toBe(`the service's answer to POST ${service.server.url}/v1/marketplaces/${MKT}/transactions/${TX}/capture is not a transaction (empty body, HTTP 204)`);
  });

  it('200 with no body to a read with a schema: exit 8', async ({ service }) => {
    const { error } = await service.call({ status: 200, raw: '' }, 'transactions.get', params);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(UncertainOutcomeError);
    expect(error!.message).toMatch(/ is not a transaction \(empty body, HTTP 200\)$/);
  });

  it('204 with no body where nothing else is expected (a removal) is still fine', async ({ service }) => {
    const { result, error } = await service.call({ status: 204 }, 'buyers.remove', params);
    expect(error).toBeUndefined();
    expect(result).toEqual({});
  });

  it('null, an array, a number or a string: a buyer is an object', async ({ service }) => {
    for (const [body, kind] of [[null, 'null'], [[], 'an array'], [42, 'a number'], ['x', 'a string']] as const) {
      const { error } = await service.call({ status: 200, body }, 'buyers.get', params);
      expect(error).toBeInstanceOf(NetworkError);
      expect(error!.message).toBe(`the service's answer to GET ${service.server.url}/v1/marketplaces/${MKT}/buyers/${TX} is not a buyer (expected an object, got ${kind})`);
      await service.server.close();
    }
  });

  // Through the whole CLI: each must be exit 8 with one line, never exit 1 and never "undefined".
  const hostile: Array<[string, Reply, RegExp]> = [
    ['null', { status: 200, body: null }, /is not a transaction \(expected an object, got null\)/],
    ['an array', { status: 200, body: [TRANSACTION] }, /is not a transaction \(expected an object, got an array\)/],
    ['a number', { status: 200, body: 42 }, /is not a transaction \(expected an object, got a number\)/],
    ['a string', { status: 200, body: 'x' }, /is not a transaction \(expected an object, got a string\)/],
    ['true', { status: 200, raw: 'true', headers: { 'content-type': 'application/json' } }, /got a boolean/],
    ['an empty object', { status: 200, body: {} }, /\(id: expected a string; status: expected a string; amount: expected a decimal string like "10\.00"\)/],
    ['null fields', { status: 200, body: { id: null, status: null, amount: null, history: null } }, /id: expected a string, got null; status: expected a string, got null; amount: expected a decimal string like "10\.00", got null\)/],
    ['an error wrapper that is null', { status: 200, body: { error: null } }, /is not a transaction \(id: expected a string; /],
    ['history that is not a list', { status: 200, body: { ...TRANSACTION, history: { 0: {} } } }, /\(history: expected an array, got an object\)/],
    ['no body', { status: 200, raw: '' }, /is not a transaction \(empty body, HTTP 200\)/],
    ['truncated JSON', { status: 200, raw: '{"id":', headers: { 'content-type': 'application/json' } }, /answered HTTP 200 with a body that is not JSON/],
  ];
  for (const [name, reply, message] of hostile) {
    it(`transactions get answered with ${name}: exit 8, one line`, async ({ service }) => {
      const result = await service.getThroughCli(reply);
      expect(result.code, result.stderr).toBe(8);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^error: the service/);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toContain('undefined');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(service.server.requests).toHaveLength(1); // a wrong answer is not asked for again
    });
  }
});

describe('statuses that are neither success nor error', () => {
  const redirects = [301, 302, 303, 307, 308];
  for (const status of redirects) {
    it(`HTTP ${status} to a void: not followed, outcome unknown, the Location shown scrubbed`, async ({ service, recording }) => {
      const elsewhere = await recording([]); // where the redirect points: it must be asked nothing
      try {
        const location = `${elsewhere.url.replace('http://', 'http://user:zpk_test_x@')}/v1/transactions/${TX}/void?token=secret#frag`;
        const { error } = await service.call({ status, headers: { location }, body: { moved: true } }, 'transactions.void', { ...params, body: VOID_BODY });
        expect(error).toBeInstanceOf(UncertainOutcomeError);
        expect(error!.message).toBe(`the service answered HTTP ${status} (redirect to ${elsewhere.url}/v1/transactions/${TX}/void), not the transaction; redirects are not followed`);
        expect(service.server.requests).toHaveLength(1);
        expect(elsewhere.requests).toHaveLength(0);
      } finally {
        await elsewhere.close();
      }
    });
  }

  it('a relative Location is resolved against the request, and another scheme is only named', async ({ service }) => {
    const relative = await service.call({ status: 302, headers: { location: '/login?next=%2F' } }, 'transactions.get', params);
    expect(relative.error).toBeInstanceOf(NetworkError);
    expect(relative.error).not.toBeInstanceOf(UncertainOutcomeError);
    expect(relative.error!.message).toBe(`the service answered HTTP 302 (redirect to ${service.server.url}/login), not the transaction; redirects are not followed`);
    await service.server.close();
    const other = await service.call({ status: 301, headers: { location: 'javascript:alert(1)' } }, 'buyers.get', params);
    expect(other.error!.message).toBe(`the service answered HTTP 301 (redirect to a javascript address), not the buyer; redirects are not followed`);
  });

  it('HTTP 304 to a read is exit 8, and is not retried', async ({ service }) => {
    const { error } = await service.call({ status: 304 }, 'transactions.get', params);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(UncertainOutcomeError);
    expect(error!.message).toBe('the service answered HTTP 304 (neither a success nor an error), not the transaction');
    expect(service.server.requests).toHaveLength(1);
  });

  it('a status past 5xx (HTTP 600) is not taken for a server error and retried', async ({ service }) => {
    const { error } = await service.call({ status: 600, body: {} }, 'transactions.create', { body: CREATE_BODY });
    expect(error).toBeInstanceOf(UncertainOutcomeError);
    expect(error!.message).toBe('the service answered HTTP 600 (neither a success nor an error), not the transaction');
    expect(service.server.requests).toHaveLength(1);
  });

  it('through the CLI: a GET answered 302 exits 8 with one line, the redirect target never contacted', async ({ service }) => {
    const result = await service.getThroughCli({ status: 302, headers: { location: 'https://login.example.com/sso?session=abc' } });
    expect(result.code).toBe(8);
    expect(result.stderr).toBe('error: the service answered HTTP 302 (redirect to https://login.example.com/sso), not the transaction; redirects are not followed\n');
    expect(service.server.requests).toHaveLength(1);
  });

  it('a list page answered with a redirect says it is not the list page', async ({ service, home }) => {
    const server = await service.serve([{ status: 307, headers: { location: '/v2/transactions' } }]);
    const result = await payctl(['transactions', 'list'], { home, env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_test_x', PAYCTL_MARKETPLACE_ID: '' } });
    expect(result.code).toBe(8);
    expect(result.stderr).toBe(`error: the service answered HTTP 307 (redirect to ${server.url}/v2/transactions), not the list page; redirects are not followed\n`);
  });

  it('a list answer that is not a list page is exit 8', async ({ service, home }) => {
    const server = await service.serve([{ status: 200, body: { data: [] } }]);
    const result = await payctl(['transactions', 'list', '-o', 'ndjson'], { home, env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_test_x', PAYCTL_MARKETPLACE_ID: '' } });
    expect(result.code).toBe(8);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`error: the service's answer to GET ${server.url}/v1/transactions is not a transaction list (items: expected an array)\n`);
  });
});

// The last look before sending (src/provider/schemas/requests.ts): a body that fails its schema is
// exit 2 naming the flag, nothing is sent, and no value (a card number) is repeated.
describe('bodies are checked before they are sent', () => {
  const card = { holder_name: 'Ana', card_number: '4111111111111112', expiration_month: '03', expiration_year: '2031', security_code: '123' };
  const cases: Array<[string, string, unknown, string]> = [
    ['a card number failing its Luhn digit', 'cards.tokenize', card, '--card-number: must be a card number of 12 to 19 digits that passes the Luhn check'],
    ['a CPF with wrong check digits', 'buyers.create', { first_name: 'Ana', taxpayer_id: '12345678900' }, '--taxpayer-id: must be a CPF or CNPJ with matching check digits'],
    ['a date not on the calendar', 'invoices.create', { customer: TX, amount: 100, currency: 'BRL', due_date: '2026-02-30' }, '--due-date: must be a calendar date YYYY-MM-DD'],
    ['money that is not whole cents', 'transactions.void', { on_behalf_of: TX, amount: 10.5 }, '--amount: must be a whole number of cents'],
    ['a missing seller', 'transactions.capture', { amount: 100 }, '--on-behalf-of: is required'],
    ['a source of another type', 'sources.create', { usage: 'single_use', type: 'token', currency: 'BRL', token: { id: TX } }, '--type'],
  ];
  for (const [name, operation, body, message] of cases) {
    it(`${name}: exit 2, nothing sent`, async ({ service }) => {
      const { error } = await service.call([], operation as never, { ...params, body });
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).exitCode).toBe(2);
      if (message !== '--type') expect(error!.message).toBe(message);
      else expect(error!.message).toBe("the request's type: must be card, the one type the provider takes");
      // The card-like value, not any 4111 (the server's random port may hold those digits).
    expect(error!.message).not.toContain('4111111111111111');
      expect(service.server.requests).toHaveLength(0);
    });
  }

  it('an alphanumeric CNPJ passes', async ({ service }) => {
    const { error } = await service.call({ status: 201, body: { id: TX } }, 'buyers.create', { body: { first_name: 'Loja', taxpayer_id: '12ABC34501DE35' } });
    expect(error).toBeUndefined();
  });
});
