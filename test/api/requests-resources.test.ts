import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.js';
import { payctl, type RunResult } from '../helpers/run.js';
import { providerError, sentFields, type RecordingServer, type Reply, type Route } from '../helpers/recording-server.js';

// Buyers, cards, sources, boletos, receipts and receivables: the request each command sends, with
// and without the marketplace prefix, and the checks made before anything is sent.
const MKT = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const SELLER = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const ID = 'cccccccccccccccccccccccccccccccc';
const TOKEN = 'dddddddddddddddddddddddddddddddd';
const KEY = 'zpk_live_resourcekey0001';

type Run = (args: string[], replies?: Reply[] | Route, marketplace?: string, stdin?: string, env?: Record<string, string>) => Promise<RunResult>;

/**
 * `api.run` runs payctl against a recording server of its own answering `replies` (none, [], is a
 * service that must be asked nothing); `api.server` is the last run's server, `api.sent()` what it
 * got; `api.table` is a successful run's table, as a terminal shows it.
 */
const it = test.extend<{ api: { run: Run; table: (args: string[], replies: Reply[]) => Promise<string>; readonly server: RecordingServer; sent: () => string[] } }>({
  api: async ({ home, recording }, use) => {
    let server: RecordingServer | undefined;
    const last = () => server ?? expect.fail('no run yet');
    await use({
      run: async (args, replies = [{ status: 200, body: { id: ID, status: 'pending', amount: '1.00' } }], marketplace = MKT, stdin, env = {}) => {
        server = await recording(replies);
        return payctl(args, {
          home,
          env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: KEY, PAYCTL_MARKETPLACE_ID: marketplace, ...env },
          ...(stdin !== undefined ? { stdin } : {}),
        });
      },
      table: async (args, replies) => {
        server = await recording(replies);
        const result = await payctl([...args, '--no-color'], { home, tty: true, env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: KEY, PAYCTL_MARKETPLACE_ID: MKT } });
        expect(result.code, result.stderr).toBe(0);
        return result.stdout;
      },
      get server() {
        return last();
      },
      sent: () => last().requests.map((r) => `${r.method} ${r.url}`),
    });
  },
});

describe('buyers', () => {
  it('create sends the checked body, CPF and CEP reduced to digits', async ({ api }) => {
    const result = await api.run([
      'buyers', 'create', '--first-name', 'Maria', '--last-name', 'Silva', '--taxpayer-id', '529.982.247-25', '--email', 'maria@example.com',
      '--phone', '(11) 98765-4321', '--birthdate', '1990-05-17', '--address-line1', 'Av. Paulista', '--address-line2', '1000', '--neighborhood', 'Bela Vista',
      '--city', 'São Paulo', '--state', 'sp', '--postal-code', '01310-100', '--metadata', 'crm=42',
    ], [{ status: 201, body: { id: ID, first_name: 'Maria', last_name: 'Silva' } }]);
    expect(result.code, result.stderr).toBe(0);
    expect(api.sent()).toEqual([`POST /v1/marketplaces/${MKT}/buyers`]);
    expect(api.server.requests[0]!.json).toEqual({
      first_name: 'Maria',
      last_name: 'Silva',
      email: 'maria@example.com',
      phone_number: '11987654321',
      taxpayer_id: '52998224725',
      birthdate: '1990-05-17',
      address: { line1: 'Av. Paulista', line2: '1000', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', postal_code: '01310100', country_code: 'BR' },
      metadata: { crm: '42' },
    });
    expect(result.stderr).toContain(`Created buyer ${ID} (Maria Silva)`);
  });

  it('a CNPJ is accepted too; without a marketplace the path has no prefix', async ({ api }) => {
    const result = await api.run(['buyers', 'create', '--first-name', 'Loja', '--taxpayer-id', '11.222.333/0001-81'], [{ status: 201, body: { id: ID } }], '');
    expect(result.code, result.stderr).toBe(0);
    expect(api.sent()).toEqual(['POST /v1/buyers']);
    expect(api.server.requests[0]!.json).toEqual({ first_name: 'Loja', taxpayer_id: '11222333000181' });
  });

  const bad: [string, string[], string][] = [
    ['invalid CPF', ['--first-name', 'A', '--taxpayer-id', '529.982.247-26'], '--taxpayer-id:'],
    ['invalid CNPJ', ['--first-name', 'A', '--taxpayer-id', '11.222.333/0001-82'], '--taxpayer-id:'],
    ['bad e-mail', ['--first-name', 'A', '--taxpayer-id', '52998224725', '--email', 'maria@'], '--email:'],
    ['bad phone', ['--first-name', 'A', '--taxpayer-id', '52998224725', '--phone', '123'], '--phone:'],
    ['birthdate in the future', ['--first-name', 'A', '--taxpayer-id', '52998224725', '--birthdate', '2999-01-01'], '--birthdate:'],
    ['state of three letters', ['--first-name', 'A', '--taxpayer-id', '52998224725', '--state', 'SPX'], '--state:'],
    ['short CEP', ['--first-name', 'A', '--taxpayer-id', '52998224725', '--postal-code', '0131'], '--postal-code:'],
  ];
  it.for(bad)('%s: exit 2, flag named, nothing sent', async ([_name, args, flag], { api }) => {
    const result = await api.run(['buyers', 'create', ...args], []);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^error: ${flag}`));
    expect(api.server.requests).toHaveLength(0);
  });

  it('create with prompts off names the missing flags', async ({ api }) => {
    const result = await api.run(['buyers', 'create', '--email', 'a@b.co'], []);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--first-name, --taxpayer-id');
    expect(api.server.requests).toHaveLength(0);
  });

  it('list, get, update, search', async ({ api }) => {
    await api.run(['buyers', 'list', '--limit', '5'], [{ status: 200, body: { items: [], has_more: false } }]);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/buyers?limit=5&offset=0`]);
    await api.server.close();
    await api.run(['buyers', 'get', ID]);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/buyers/${ID}`]);
    await api.server.close();
    await api.run(['buyers', 'update', ID, '--email', 'novo@example.com']);
    expect(api.sent()).toEqual([`PUT /v1/marketplaces/${MKT}/buyers/${ID}`]);
    expect(api.server.requests[0]!.json).toEqual({ email: 'novo@example.com' });
    await api.server.close();
    const search = await api.run(['buyers', 'search', '--taxpayer-id', '529.982.247-25']);
    expect(search.code).toBe(0);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/buyers/search?taxpayer_id=52998224725`]);
  });

  it('update with no flags is a usage error', async ({ api }) => {
    const result = await api.run(['buyers', 'update', ID], []);
    expect(result.code).toBe(2);
    expect(api.server.requests).toHaveLength(0);
  });

  it('remove asks first: without --yes and prompts off, exit 2 and nothing removed', async ({ api }) => {
    const result = await api.run(['buyers', 'remove', ID], [{ status: 200, body: { id: ID, first_name: 'Maria', taxpayer_id: '52998224725' } }]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--yes required');
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/buyers/${ID}`]);
  });

  it('remove --yes deletes; a buyer with dependents is refused by the API (exit 6)', async ({ api }) => {
    const result = await api.run(['buyers', 'remove', ID, '--yes'], (req) =>
      req.method === 'GET' ? { status: 200, body: { id: ID } } : { status: 409, body: providerError(409, 'buyer_has_dependents', 'The buyer still owns 1 card') },
    );
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('error: The buyer still owns 1 card (buyer_has_dependents, HTTP 409)');
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/buyers/${ID}`, `DELETE /v1/marketplaces/${MKT}/buyers/${ID}`]);
  });

  it('an unknown buyer exits 5', async ({ api }) => {
    const result = await api.run(['buyers', 'get', ID], [{ status: 404, body: providerError(404, 'resource_not_found', 'Sorry, the buyer does not exist') }]);
    expect(result.code).toBe(5);
  });
});

describe('cards', () => {
  it('associate sends token and customer', async ({ api }) => {
    const result = await api.run(['cards', 'associate', '--token', TOKEN, '--customer', ID], [{ status: 200, body: { id: 'card1', card_brand: 'Visa', last4_digits: '1111' } }]);
    expect(result.code, result.stderr).toBe(0);
    expect(api.sent()).toEqual([`POST /v1/marketplaces/${MKT}/cards`]);
    expect(api.server.requests[0]!.json).toEqual({ token: TOKEN, customer: ID });
  });

  it('associate without --customer names it; a used token is a clear API error', async ({ api }) => {
    const missing = await api.run(['cards', 'associate', '--token', TOKEN], []);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--customer');
    await api.server.close();
    const used = await api.run(['cards', 'associate', '--token', TOKEN, '--customer', ID], [{ status: 400, body: providerError(400, 'token_already_used', `The token (id: ${TOKEN}) has already been used`) }]);
    expect(used.code).toBe(6);
    expect(used.stderr).toBe(`error: The token (id: ${TOKEN}) has already been used (token_already_used, HTTP 400)\n`);
  });

  it('get and remove (confirmed)', async ({ api }) => {
    await api.run(['cards', 'get', ID]);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/cards/${ID}`]);
    await api.server.close();
    const removed = await api.run(['cards', 'remove', ID, '--yes'], [{ status: 200, body: { id: ID, status: 'active' } }, { status: 204 }]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/cards/${ID}`, `DELETE /v1/marketplaces/${MKT}/cards/${ID}`]);
  });
});

describe('sources', () => {
  it('from a stored card, reusable, with an amount', async ({ api }) => {
    const result = await api.run(['sources', 'create', '--card', ID, '--usage', 'reusable', '--amount', '49,90', '--on-behalf-of', SELLER], [{ status: 201, body: { id: 's1' } }]);
    expect(result.code, result.stderr).toBe(0);
    expect(api.sent()).toEqual([`POST /v1/marketplaces/${MKT}/sources`]);
    expect(api.server.requests[0]!.json).toEqual({ usage: 'reusable', type: 'card', currency: 'BRL', capture: true, amount: 4990, card: { id: ID }, on_behalf_of: SELLER });
  });

  it('from a token and from a buyer', async ({ api }) => {
    const seller = 'f'.repeat(32);
    await api.run(['sources', 'create', '--token', TOKEN], [{ status: 201, body: { id: 's1' } }], MKT, undefined, { PAYCTL_SELLER_ID: seller });
    // No --on-behalf-of: the seller from the environment is used.
    expect(api.server.requests[0]!.json).toEqual({ usage: 'single_use', type: 'card', currency: 'BRL', capture: true, token: { id: TOKEN }, on_behalf_of: seller });
    await api.server.close();
    await api.run(['sources', 'create', '--customer', ID, '--no-capture'], [{ status: 201, body: { id: 's1' } }]);
    expect(api.server.requests[0]!.json).toMatchObject({ usage: 'single_use', type: 'card', currency: 'BRL', capture: false, customer: ID });
  });

  it('from card details read from --card-file -', async ({ api }) => {
    const card = { card_number: '5555555555554444', holder_name: 'Ana', expiration_month: '3', expiration_year: '2031', security_code: '321' };
    const result = await api.run(['sources', 'create', '--card-file', '-'], [{ status: 201, body: { id: 's1' } }], MKT, JSON.stringify(card));
    expect(result.code, result.stderr).toBe(0);
    expect(sentFields(api.server.requests[0]!).card).toEqual({ ...card, expiration_month: '03' });
  });

  it('two origins, an unknown usage, or none with prompts off: exit 2', async ({ api }) => {
    expect((await api.run(['sources', 'create', '--card', ID, '--token', TOKEN], [])).code).toBe(2);
    await api.server.close();
    expect((await api.run(['sources', 'create', '--card', ID, '--usage', 'forever'], [])).code).toBe(2);
    await api.server.close();
    const none = await api.run(['sources', 'create'], []);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--card <card-id>, --token <token-id>, --customer <buyer-id>');
    expect(api.server.requests).toHaveLength(0);
  });

  it('get and remove', async ({ api }) => {
    await api.run(['sources', 'get', ID]);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/sources/${ID}`]);
    await api.server.close();
    await api.run(['sources', 'remove', ID, '--yes']);
    expect(api.sent()).toEqual([`DELETE /v1/marketplaces/${MKT}/sources/${ID}`]);
  });
});

describe('boletos', () => {
  it('get and send (with --to)', async ({ api }) => {
    await api.run(['boletos', 'get', ID]);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/boletos/${ID}`]);
    await api.server.close();
    // The provider's operation takes no body (415 to one): nothing but the path is sent.
    const send = await api.run(['boletos', 'send', ID], [{ status: 200, body: { message: 'success' } }]);
    expect(send.code, send.stderr).toBe(0);
    expect(api.sent()).toEqual([`POST /v1/marketplaces/${MKT}/boletos/${ID}/emails`]);
    expect(api.server.requests[0]!.body).toBe('');
    expect(api.server.requests[0]!.headers['content-type']).toBeUndefined();
    await api.server.close();
    // --to checks the buyer's address on file before anything is sent.
    const BUYER = 'b'.repeat(32);
    const answers = (email: string) => (req: { method: string; path: string }) =>
      req.path.endsWith('/emails') ? { status: 200, body: { message: 'success' } } : req.path.includes('/buyers/') ? { status: 200, body: { id: BUYER, email } } : { status: 200, body: { id: ID, customer: BUYER } };
    const matching = await api.run(['boletos', 'send', ID, '--to', 'Fin@example.com'], answers('fin@example.com'));
    expect(matching.code, matching.stderr).toBe(0);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/boletos/${ID}`, `GET /v1/marketplaces/${MKT}/buyers/${BUYER}`, `POST /v1/marketplaces/${MKT}/boletos/${ID}/emails`]);
    await api.server.close();
    const other = await api.run(['boletos', 'send', ID, '--to', 'fin@example.com'], answers('maria@example.com'));
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("only to its buyer's address on file (maria@example.com), not to fin@example.com; nothing was sent");
    expect(other.stderr).toContain(`payctl buyers update ${BUYER} --email fin@example.com`);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/boletos/${ID}`, `GET /v1/marketplaces/${MKT}/buyers/${BUYER}`]);
  });

  it('send with a bad address: exit 2, nothing sent', async ({ api }) => {
    const result = await api.run(['boletos', 'send', ID, '--to', 'nope'], []);
    expect(result.code).toBe(2);
    expect(api.server.requests).toHaveLength(0);
  });

  it('cancel looks the transaction up, asks, and posts outside the marketplace prefix', async ({ api }) => {
    const result = await api.run(['boletos', 'cancel', ID, '--yes'], (req) =>
      req.method === 'GET'
        ? { status: 200, body: { id: ID, payment_type: 'boleto', status: 'pending', amount: '150.00', currency: 'BRL' } }
        : { status: 202, body: { status: 'Requested', message: 'Cancellation request created successfully', transaction_id: ID } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/transactions/${ID}`, `POST /v1/boletos/cancellation/marketplaces/${MKT}/transactions/${ID}`]);
    expect(result.stderr).toContain('Cancellation request created successfully');
  });

  it("the provider's flat refusal body becomes one clear line (exit 6)", async ({ api }) => {
    const result = await api.run(['boletos', 'cancel', ID, '--yes'], (req) =>
      req.method === 'GET'
        ? { status: 200, body: { id: ID, payment_type: 'boleto', status: 'succeeded', amount: '1.00' } }
        : { status: 422, body: { status: 'REFUSED', message: 'Transaction status is invalid' } },
    );
    expect(result.code).toBe(6);
    expect(result.stderr).toBe('error: Transaction status is invalid (refused, HTTP 422)\n');
  });

  it('cancel of a card transaction is refused before sending; without a marketplace it cannot be addressed', async ({ api }) => {
    const card = await api.run(['boletos', 'cancel', ID, '--yes'], [{ status: 200, body: { id: ID, payment_type: 'credit', status: 'succeeded', amount: '1.00' } }]);
    expect(card.code).toBe(2);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/transactions/${ID}`]);
    await api.server.close();
    const noMarketplace = await api.run(['boletos', 'cancel', ID, '--dry-run'], [], '');
    expect(noMarketplace.code).toBe(2);
    expect(noMarketplace.stderr).toContain("needs the profile's marketplace_id");
  });
});

describe('receipts', () => {
  it('get, email, sms (normalised to +55 DD number)', async ({ api }) => {
    await api.run(['receipts', 'get', ID]);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/receipts/${ID}`]);
    await api.server.close();
    await api.run(['receipts', 'email', ID, '--to', 'maria@example.com'], [{ status: 200, body: { message: 'success', delivery_method: 'email' } }]);
    expect(api.sent()).toEqual([`POST /v1/marketplaces/${MKT}/receipts/${ID}/emails`]);
    expect(api.server.requests[0]!.json).toEqual({ to: 'maria@example.com' });
    await api.server.close();
    const sms = await api.run(['receipts', 'sms', ID, '--to', '(21) 99909-9999'], [{ status: 200, body: { message: 'success', delivery_method: 'sms' } }]);
    expect(sms.code, sms.stderr).toBe(0);
    expect(api.sent()).toEqual([`POST /v1/marketplaces/${MKT}/receipts/${ID}/texts`]);
    expect(api.server.requests[0]!.json).toEqual({ to: '+55 21999099999' });
  });

  const phones: [string, boolean][] = [
    ['+55 21 99909-9999', true],
    ['5521999099999', true],
    ['(11) 3456-7890', true],
    ['+1 415 555 0100', false],
    ['999099999', false],
    ['(01) 99909-9999', false],
    ['(21) 89909-9999', false],
  ];
  it.for(phones)('sms --to %s accepted: %s', async ([phone, ok], { api }) => {
    const result = await api.run(['receipts', 'sms', ID, '--to', phone], ok ? [{ status: 200, body: { message: 'success' } }] : []);
    expect(result.code).toBe(ok ? 0 : 2);
    expect(api.server.requests).toHaveLength(ok ? 1 : 0);
    if (!ok) expect(result.stderr).toMatch(/^error: --to:/);
  });

  it('email and sms need --to when prompts are off', async ({ api }) => {
    for (const verb of ['email', 'sms']) {
      const result = await api.run(['receipts', verb, ID], []);
      expect(result.code, verb).toBe(2);
      expect(result.stderr, verb).toContain('--to');
      await api.server.close();
    }
  });

  it('render fetches the HTML outside the marketplace prefix and writes it to stdout when piped', async ({ api }) => {
    const html = '<!doctype html><html><body>Recibo</body></html>';
    const result = await api.run(['receipts', 'render', ID], [{ status: 200, raw: html, headers: { 'content-type': 'text/html; charset=utf-8' } }]);
    expect(result.code, result.stderr).toBe(0);
    expect(api.sent()).toEqual([`GET /v1/receipts/${MKT}/${ID}`]);
    expect(api.server.requests[0]!.headers.accept).toContain('text/html');
    expect(result.stdout).toBe(html);
  });
});

describe('receivables', () => {
  it('get, and list by transaction', async ({ api }) => {
    await api.run(['receivables', 'get', ID]);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/receivables/${ID}`]);
    await api.server.close();
    const list = await api.run(['receivables', 'list', '--transaction', ID], [{ status: 200, body: { items: [{ id: 'r1', status: 'pending', amount: '9.70', gross_amount: '10.00' }], has_more: false } }]);
    expect(list.code).toBe(0);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/transactions/${ID}/receivables?limit=100&offset=0`]);
    expect(JSON.parse(list.stdout)).toEqual([{ id: 'r1', status: 'pending', amount: '9.70', gross_amount: '10.00' }]); // no display-only fields in JSON
  });

  it('list without --transaction names it', async ({ api }) => {
    const result = await api.run(['receivables', 'list'], []);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--transaction');
  });
});

describe('without a marketplace_id every scoped path drops the prefix', () => {
  const cases: [string[], string][] = [
    [['buyers', 'get', ID], `GET /v1/buyers/${ID}`],
    [['buyers', 'search', '--taxpayer-id', '52998224725'], 'GET /v1/buyers/search?taxpayer_id=52998224725'],
    [['cards', 'get', ID], `GET /v1/cards/${ID}`],
    [['cards', 'associate', '--token', TOKEN, '--customer', ID], 'POST /v1/cards'],
    [['sources', 'get', ID], `GET /v1/sources/${ID}`],
    [['sources', 'create', '--customer', ID], 'POST /v1/sources'],
    [['boletos', 'get', ID], `GET /v1/boletos/${ID}`],
    [['boletos', 'send', ID], `POST /v1/boletos/${ID}/emails`],
    [['receipts', 'get', ID], `GET /v1/receipts/${ID}`],
    [['receipts', 'email', ID, '--to', 'a@b.co'], `POST /v1/receipts/${ID}/emails`],
    [['receipts', 'sms', ID, '--to', '21999099999'], `POST /v1/receipts/${ID}/texts`],
    [['receivables', 'get', ID], `GET /v1/receivables/${ID}`],
    [['receivables', 'list', '--transaction', ID], `GET /v1/transactions/${ID}/receivables?limit=100&offset=0`],
  ];
  it.for(cases)('%j → %s', async ([args, expected], { api }) => {
    const result = await api.run(args, [{ status: 200, body: { id: ID, status: 'pending', amount: '1.00', items: [], has_more: false } }], '');
    expect(result.code, result.stderr).toBe(0);
    expect(api.sent()).toEqual([expected]);
  });

  it('receipts render needs the marketplace (its path names it): exit 2, nothing sent', async ({ api }) => {
    const result = await api.run(['receipts', 'render', ID], [], '');
    expect(result.code).toBe(2);
    expect(api.server.requests).toHaveLength(0);
  });
});

describe('tables for a support agent', () => {
  it('a card as a view: brand and last four, never more', async ({ api }) => {
    const card = { id: ID, resource: 'card', card_brand: 'Visa', first4_digits: '4111', last4_digits: '1111', holder_name: 'Maria Silva', expiration_month: '12', expiration_year: '2031' };
    const result = await api.table(['cards', 'get', ID], [{ status: 200, body: card }]);
    expect(result).toMatch(/^Card\s+Visa ••••1111$/m);
    expect(result).toMatch(/^Expires\s+12\/2031$/m);
    expect(result).toMatch(/^Holder\s+Maria Silva$/m);
    expect(result).not.toContain('4111');
  });

  it("receivables: installment, expected date, gross, fee, net, status; a sale's, who gets each", async ({ api }) => {
    const items = [
      { id: 'r1', installment: '1', expected_on: '2026-12-22T00:00:00.000Z', gross_amount: '33.34', amount: '32.34', status: 'pending', recipient: 's1' },
      { id: 'r2', installment: '2', expected_on: '2027-01-22T00:00:00.000Z', gross_amount: '33.33', amount: '32.33', status: 'pending', recipient: 's1' },
    ];
    // The recipient's name is looked up: this one is not found, so its id is shown.
    const table = await api.table(['receivables', 'list', '--transaction', ID], [{ status: 200, body: { items, has_more: false } }, { status: 404, body: providerError(404, 'resource_not_found', 'gone') }]);
    const lines = table.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^INSTALLMENT\s+EXPECTED\s+GROSS\s+FEE\s+NET\s+STATUS\s+RECIPIENT\s+ID$/);
    expect(lines[1]).toMatch(/^1\s+2026-12-22\s+R\$ 33,34\s+R\$ 1,00\s+R\$ 32,34\s+pending\s+s1\s+r1$/);
    // Two rows, then what they add up to.
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('2 receivables  gross R$ 66,67  fees R$ 2,00  net R$ 64,67');
  });

  it('buyers: name, masked CPF/CNPJ, e-mail, created', async ({ api }) => {
    const items = [
      { id: 'b1', first_name: 'Maria', last_name: 'Silva', taxpayer_id: '52998224725', email: 'maria@example.com', created_at: '2026-11-01T10:00:00.000Z' },
      { id: 'b2', first_name: 'Loja', last_name: null, taxpayer_id: '11222333000181', email: null, created_at: '2026-11-02T10:00:00.000Z' },
    ];
    const table = await api.table(['buyers', 'list'], [{ status: 200, body: { items, has_more: false } }]);
    expect(table).toMatch(/b1\s+Maria Silva\s+\*\*\*\.\*\*\*\.\*47-25\s+maria@example\.com\s+2026-11-01 10:00/);
    expect(table).toContain('**.***.***/**01-81');
    expect(table).not.toContain('52998224725');
  });
});
