import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { converse, KEY } from '../helpers/interactive.js';
import type { RecordedRequest } from '../helpers/recording-server.js';
import { expectError, expectJson, expectUsage, RECORDED_MARKETPLACE, run, runAgainst, SANDBOX_LINE } from './helpers.js';

// Sellers from the CLI: people (CPF) and companies (CNPJ, the alphanumeric one included) made,
// listed, shown, changed and removed in the embedded sandbox, and the exact requests sent for them.
const SELLER = 'c'.repeat(32);
const PREFIX = `/v1/marketplaces/${RECORDED_MARKETPLACE}`;
const json = async <const A extends readonly string[]>(home: string, args: A) => expectJson(await run(home, [...args, '-o', 'json']));

const PERSON = ['--first-name', 'João', '--last-name', 'Souza', '--taxpayer-id', '529.982.247-25', '--email', 'joao@example.com'];
const COMPANY = ['--business-name', 'Loja Azul Ltda', '--ein', '12.ABC.345/01DE-35', '--email', 'contato@lojaazul.com.br'];

async function createSeller(home: string, args: string[]) {
  const result = await run(home, ['sellers', 'create', ...args, '-o', 'json']);
  const seller = expectJson(result);
  expect(result.stderr.startsWith(`${SANDBOX_LINE}Created seller ${seller.id} (`), result.stderr).toBe(true);
  return seller;
}

/** Only the seeded seller: what a refused create must leave. */
async function expectOnlySeeded(home: string): Promise<void> {
  expect((await json(home, ['sellers', 'list', '--all'])).map((s) => s.id)).toEqual([SANDBOX_SELLER_ID]);
}

describe('sellers in the embedded sandbox', () => {
  it('creates a person with a CPF and a company with an alphanumeric CNPJ and its owner', async ({ home }) => {
    const person = await createSeller(home, [...PERSON, '--phone', '(11) 98765-4321', '--birthdate', '1985-03-02', '--city', 'São Paulo', '--state', 'sp']);
    expect(person).toMatchObject({
      resource: 'seller',
      type: 'individual',
      first_name: 'João',
      last_name: 'Souza',
      taxpayer_id: '52998224725',
      email: 'joao@example.com',
      phone_number: '11987654321',
      birthdate: '1985-03-02',
      address: { city: 'São Paulo', state: 'SP' },
      ein: null,
    });
    const company = await createSeller(home, [...COMPANY, '--owner-first-name', 'Ana', '--owner-taxpayer-id', '111.444.777-35', '--opening-date', '2019-08-01', '--statement-descriptor', 'LOJA AZUL']);
    expect(company).toMatchObject({
      type: 'business',
      business_name: 'Loja Azul Ltda',
      ein: '12ABC34501DE35',
      business_email: 'contato@lojaazul.com.br',
      business_opening_date: '2019-08-01',
      statement_descriptor: 'LOJA AZUL',
      owner: { first_name: 'Ana', taxpayer_id: '11144477735' },
      taxpayer_id: null,
    });
    // A numeric CNPJ too.
    expect((await createSeller(home, ['--business-name', 'Padaria', '--ein', '11.444.777/0001-61', '--email', 'p@example.com'])).ein).toBe('11444777000161');
    const listed = await json(home, ['sellers', 'list', '--all']);
    expect(listed.map((s) => s.id)).toEqual(expect.arrayContaining([person.id, company.id, SANDBOX_SELLER_ID]));
    expect(listed).toHaveLength(4);
  });

  it('refuses a bad CPF or CNPJ, or one of the wrong kind, with exit 2 naming the flag; nothing is sent', async ({ home }) => {
    const cases: Array<[string[], string, string]> = [
      [['--first-name', 'A', '--last-name', 'B', '--taxpayer-id', '529.982.247-26', '--email', 'a@example.com'], '--taxpayer-id:', 'not a valid CPF'],
      [['--first-name', 'A', '--last-name', 'B', '--taxpayer-id', '11.444.777/0001-61', '--email', 'a@example.com'], '--taxpayer-id:', 'a person has a CPF'],
      [['--business-name', 'X', '--ein', '12.ABC.345/01DE-36', '--email', 'x@example.com'], '--ein:', 'not a valid CNPJ'],
      [['--business-name', 'X', '--ein', '12.ABC.345/01DE-3A', '--email', 'x@example.com'], '--ein:', 'check digits, always digits'],
      [['--business-name', 'X', '--ein', '529.982.247-25', '--email', 'x@example.com'], '--ein:', 'a company has a CNPJ'],
      [['--business-name', 'X', '--ein', '11.444.777/0001-61', '--email', 'x@example.com', '--owner-taxpayer-id', '111.444.777-36'], '--owner-taxpayer-id:', 'not a valid CPF'],
      [['--first-name', 'A', '--last-name', 'B', '--taxpayer-id', '529.982.247-25'], 'missing', '--email'],
      [[...COMPANY, '--owner-first-name', 'Ana', '--owner-email', 'ana@'], '--owner-email:', 'e-mail'],
      [['--business-name', 'X', '--email', 'x@example.com'], 'missing', '--ein'],
      [['--first-name', 'A', '--ein', '11.444.777/0001-61'], '--first-name is for a person', '--ein for a company'],
      [['--email', 'x@example.com'], 'a person with --first-name', 'a company with --business-name'],
    ];
    for (const [args, ...fragments] of cases) expectUsage(await run(home, ['sellers', 'create', ...args]), ...fragments);
    await expectOnlySeeded(home);
  });

  it('on a terminal, asks what the flags leave out: the kind, then each required field, re-asking a bad CNPJ', async ({ home }) => {
    const result = await converse(['sellers', 'create', '-o', 'json'], home, [
      { prompt: /Who is the seller/, keys: `${KEY.down}${KEY.enter}` }, // a company
      { prompt: /Business name/, keys: `Loja Azul Ltda${KEY.enter}` },
      { prompt: /CNPJ/, keys: `12.ABC.345/01DE-36${KEY.enter}` },
      { prompt: /not a valid CNPJ/, keys: `${'\x7f'.repeat(18)}12.ABC.345/01DE-35${KEY.enter}` },
      { prompt: /E-mail/, keys: `contato@lojaazul.com.br${KEY.enter}` },
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ type: 'business', business_name: 'Loja Azul Ltda', ein: '12ABC34501DE35', business_email: 'contato@lojaazul.com.br' });
    // A kind the flags already tell is not asked again.
    const person = await converse(['sellers', 'create', '--first-name', 'Ana', '--taxpayer-id', '529.982.247-25', '-o', 'json'], home, [
      { prompt: /Last name/, keys: `Lima${KEY.enter}` },
      { prompt: /E-mail/, keys: `ana@example.com${KEY.enter}` },
    ]);
    expect(person.code, person.stderr).toBe(0);
    expect(JSON.parse(person.stdout)).toMatchObject({ type: 'individual', first_name: 'Ana', last_name: 'Lima', taxpayer_id: '52998224725' });
  });

  it('shows a seller as a view, changes it, and removes it after asking', async ({ home }) => {
    const company = await createSeller(home, [...COMPANY, '--owner-first-name', 'Ana', '--owner-taxpayer-id', '111.444.777-35']);
    const view = await run(home, ['sellers', 'get', company.id, '--no-color'], { tty: true, env: { COLUMNS: '100' } });
    expect(view.code, view.stderr).toBe(0);
    expect(view.stdout).toMatch(new RegExp(`^Seller ${company.id}\\s+active\\n`));
    expect(view.stdout).toMatch(/\nName\s+Loja Azul Ltda\n/);
    expect(view.stdout).toMatch(/\nType\s+company \(business\)\n/);
    expect(view.stdout).toMatch(/\nCPF\/CNPJ\s+\*\*\.\*\*\*\.\*\*\*\/\*\*DE-35\n/);
    expect(view.stdout).toMatch(/\nOwner\s+Ana, \*\*\*\.\*\*\*\.\*77-35\n/);
    const table = await run(home, ['sellers', 'list', '--no-color'], { tty: true, env: { COLUMNS: '160' } });
    expect(table.stdout).toMatch(/^ID\s+TYPE\s+NAME\s+CPF\/CNPJ\s+EMAIL\s+CREATED\n/);
    expect(table.stdout).toMatch(/business\s+Loja Azul Ltda\s+\*\*\.\*\*\*\.\*\*\*\/\*\*DE-35\s+contato@lojaazul\.com\.br/);

    const updated = await run(home, ['sellers', 'update', company.id, '--email', 'novo@lojaazul.com.br', '--city', 'Niterói', '--state', 'RJ', '-o', 'json']);
    expect(expectJson(updated)).toMatchObject({ business_email: 'novo@lojaazul.com.br', business_address: { city: 'Niterói', state: 'RJ' }, email: null });
    expect(updated.stderr).toBe(`${SANDBOX_LINE}Updated seller ${company.id}\n`);
    expectError(await run(home, ['sellers', 'update', company.id, '--first-name', 'Ana']), 2, 'is a company (business seller): --first-name does not apply');
    // The owner's fields merge: a last name alone keeps the name and CPF given before.
    expect((await json(home, ['sellers', 'update', company.id, '--owner-last-name', 'Lima'])).owner).toEqual({ first_name: 'Ana', last_name: 'Lima', taxpayer_id: '11144477735', email: null });
    expectUsage(await run(home, ['sellers', 'update', company.id, '--ein', '12.ABC.345/01DE-36']), '--ein:', 'not a valid CNPJ');

    expectError(await run(home, ['sellers', 'remove', company.id]), 2, '--yes required to remove a seller');
    expect((await json(home, ['sellers', 'get', company.id])).id).toBe(company.id);
    const removed = await run(home, ['sellers', 'remove', company.id, '--yes', '-o', 'json']);
    expect(expectJson(removed)).toEqual({ id: company.id, resource: 'seller', deleted: true });
    expect(removed.stderr).toBe(`${SANDBOX_LINE}Removed seller ${company.id}\n`);
    expectError(await run(home, ['sellers', 'get', company.id]), 5, 'HTTP 404');
    // The marketplace's own seller stays.
    expectError(await run(home, ['sellers', 'remove', SANDBOX_SELLER_ID, '--yes']), 6, "marketplace's own seller", 'HTTP 409');
    // One seller per document.
    expectError(await run(home, ['sellers', 'create', '--business-name', 'Outra', '--ein', '11.222.333/0001-81', '--email', 'o@example.com']), 6, 'HTTP 409');
  });

  it('a new seller has a balance account of its own, and a seller with money is not removed', async ({ home }) => {
    const person = await createSeller(home, PERSON);
    const balance = await json(home, ['balances', 'get', '--seller', person.id]);
    expect(balance).toMatchObject({ owner: person.id, type: 'seller', current_balance: '0.00' });
    expect(balance.account).not.toBe((await json(home, ['balances', 'get'])).account);
    await json(home, ['transactions', 'create', '--amount', '10', '--card-number', '4111111111111111', '--holder-name', 'Maria Silva', '--exp-month', '12', '--exp-year', '2031', '--cvv', '123', '--on-behalf-of', person.id]);
    expectError(await run(home, ['sellers', 'remove', person.id, '--yes']), 6, 'it still has a balance of 9.70', 'HTTP 409');
  });
});

describe('sellers create and update post to the path of their kind, with the provider\u2019s fields', () => {
  const seller = { id: SELLER, resource: 'seller', type: 'individual', first_name: 'João', taxpayer_id: '52998224725' };
  async function sent(home: string, args: string[]): Promise<{ requests: RecordedRequest[] }> {
    const { result, requests } = await runAgainst(home, args, (req) => ({ status: req.method === 'POST' ? 201 : 200, body: seller }));
    expect(result.code, result.stderr).toBe(0);
    return { requests };
  }

  it('a person is posted to …/sellers/individuals and a company to …/sellers/businesses, with the provider’s fields', async ({ home }) => {
    const person = await sent(home, ['sellers', 'create', ...PERSON, '--phone', '(21) 99909-9999', '-o', 'json']);
    expect(person.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${PREFIX}/sellers/individuals`]);
    expect(person.requests[0]?.json).toEqual({ first_name: 'João', last_name: 'Souza', taxpayer_id: '52998224725', email: 'joao@example.com', phone_number: '21999099999' });
    const company = await sent(home, ['sellers', 'create', ...COMPANY, '--owner-first-name', 'Ana', '--owner-taxpayer-id', '111.444.777-35', '--postal-code', '01310-100', '-o', 'json']);
    expect(company.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${PREFIX}/sellers/businesses`]);
    expect(company.requests[0]?.json).toEqual({
      business_name: 'Loja Azul Ltda',
      ein: '12ABC34501DE35',
      business_email: 'contato@lojaazul.com.br',
      business_address: { postal_code: '01310100', country_code: 'BR' },
      owner: { first_name: 'Ana', taxpayer_id: '11144477735' },
    });
    // An update reads the seller first to know its kind, then puts to that kind's path.
    const update = await sent(home, ['sellers', 'update', SELLER, '--email', 'novo@example.com', '-o', 'json']);
    expect(update.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${PREFIX}/sellers/${SELLER}`, `PUT ${PREFIX}/sellers/individuals/${SELLER}`]);
    expect(update.requests[1]?.json).toEqual({ email: 'novo@example.com' });
  });

  it('update --dry-run reads nothing: the PUT its flags tell, or the GET it would start with', async ({ home }) => {
    const put = await runAgainst(home, ['sellers', 'update', SELLER, '--ein', '11.444.777/0001-61', '--dry-run'], []);
    expect(put.requests).toEqual([]);
    expect(JSON.parse(put.result.stdout)).toMatchObject({ dry_run: true, method: 'PUT', body: { ein: '11444777000161' } });
    expect(JSON.parse(put.result.stdout).url).toMatch(new RegExp(`${PREFIX}/sellers/businesses/${SELLER}$`));
    const get = await runAgainst(home, ['sellers', 'update', SELLER, '--email', 'x@example.com', '--dry-run'], []);
    expect(get.requests).toEqual([]);
    expect(JSON.parse(get.result.stdout)).toMatchObject({ dry_run: true, method: 'GET' });
  });

  it('a bad CPF or CNPJ sends nothing at all', async ({ home }) => {
    for (const args of [
      ['sellers', 'create', '--business-name', 'X', '--ein', '12.ABC.345/01DE-36', '--email', 'x@example.com'],
      ['sellers', 'create', '--first-name', 'A', '--last-name', 'B', '--taxpayer-id', '529.982.247-26', '--email', 'a@example.com'],
      ['sellers', 'update', SELLER, '--ein', '12ABC34501DE3'],
    ]) {
      const { result, requests } = await runAgainst(home, args, []);
      expectUsage(result, args.includes('--ein') ? '--ein:' : '--taxpayer-id:');
      expect(requests, args.join(' ')).toEqual([]);
    }
  });
});
