import { describe, expect } from 'vitest';
import { buildCreateRequest, createFingerprint, generatedReference } from '../../src/commands/transactions/create.js';
import { VERSION } from '../../src/version.js';
import { payctl } from '../helpers/run.js';
import { providerError, sentFields, type RecordingServer } from '../helpers/recording-server.js';
import { asProviderWould, base, BUYER, CARD, card, created, it, KEY, MKT, NEXT, SELLER, TX, tx } from './request-runs.js';

describe('what is sent', () => {
  it('HTTP Basic with the key as user name, User-Agent, marketplace prefix', async ({ api }) => {
    const result = await api.run(['transactions', 'get', TX], [{ status: 200, body: { id: TX, status: 'succeeded', amount: '10.50' } }]);
    expect(result.code).toBe(0);
    const req = api.server.requests[0]!;
    expect(req.method).toBe('GET');
    expect(req.path).toBe(`/v1/marketplaces/${MKT}/transactions/${TX}`);
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from(`${KEY}:`).toString('base64')}`);
    expect(req.headers['user-agent']).toBe(`payctl/${VERSION}`);
  });

  it('no marketplace prefix without a marketplace id', async ({ api }) => {
    await api.run(['transactions', 'get', TX], [{ status: 200, body: { id: TX, status: 'succeeded', amount: '10.50' } }], { PAYCTL_MARKETPLACE_ID: '' });
    expect(api.server.requests[0]!.path).toBe(`/v1/transactions/${TX}`);
  });

  it('list query: filters, dates as date_range, sort, limit', async ({ api }) => {
    const result = await api.run(
      ['transactions', 'list', '--status', 'failed', '--payment-type', 'credit', '--reference-id', 'r1', '--from', '2026-11-01', '--to', '2026-11-30', '--sort', 'asc', '--limit', '5'],
      [{ status: 200, body: { resource: 'list', items: [], has_more: false, total: 0 } }],
    );
    expect(result.code).toBe(0);
    const url = new URL(api.server.requests[0]!.url, 'http://x');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      status: 'failed',
      payment_type: 'credit',
      reference_id: 'r1',
      'date_range[gte]': String(Date.UTC(2026, 10, 1) / 1000),
      // The day after --to, from its first second: the whole last day, to the millisecond.
      'date_range[lt]': String(Date.UTC(2026, 11, 1) / 1000),
      sort: 'time-ascending',
      limit: '5',
      offset: '0',
    });
    expect(result.stdout).toBe('[]\n');
  });

  // The provider's file types status and payment_type as one-value enums, without bolepix or debit.
  describe('several values in a filter, and types the service cannot filter by', () => {
    const tx = (id: string, status: string, payment_type: string, at: string) => ({ id, status, payment_type, amount: '1.00', created_at: `2026-11-${at}T10:00:00.000Z` });
    const all = [
      tx('t6', 'succeeded', 'bolepix', '26'),
      tx('t5', 'failed', 'credit', '25'),
      tx('t4', 'succeeded', 'credit', '24'),
      tx('t3', 'succeeded', 'pix', '23'),
      tx('t2', 'failed', 'bolepix', '22'),
      tx('t1', 'succeeded', 'credit', '21'),
    ];
    // A service that filters by one status and one payment type, newest first, in pages of 2.
    const service = (req: { url: string }) => {
      const q = new URL(req.url, 'http://x').searchParams;
      const offset = Number(q.get('offset'));
      const limit = Math.min(Number(q.get('limit')), 2);
      const items = all.filter((t) => (!q.get('status') || t.status === q.get('status')) && (!q.get('payment_type') || t.payment_type === q.get('payment_type')));
      const page = items.slice(offset, offset + limit);
      return { status: 200, body: { items: page, has_more: offset + page.length < items.length, total: items.length } };
    };
    const queries = (api: { server: RecordingServer }) =>
      api.server.requests
        .map((r) => new URL(r.url, 'http://x').searchParams)
        .map((q) => `${q.get('status') ?? '*'}/${q.get('payment_type') ?? '*'}`);

    it('one request per value, each with one value, merged newest first', async ({ api }) => {
      const result = await api.run(['transactions', 'list', '--status', 'succeeded,failed', '--payment-type', 'credit', '--all'], service);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).map((t: { id: string }) => t.id)).toEqual(['t5', 't4', 't1']);
      expect([...new Set(queries(api))].sort()).toEqual(['failed/credit', 'succeeded/credit']);
    });

    it('bolepix is kept by payctl from the unfiltered list; --limit stops the reading', async ({ api }) => {
      const result = await api.run(['transactions', 'list', '--payment-type', 'credit,bolepix', '--limit', '3'], service);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).map((t: { id: string }) => t.id)).toEqual(['t6', 't5', 't4']);
      expect([...new Set(queries(api))].sort()).toEqual(['*/*', '*/credit']);
      expect(result.stderr).toContain('the service cannot filter by bolepix');
      const oldestFirst = await api.run(['transactions', 'list', '--payment-type', 'bolepix', '--sort', 'asc'], (req) => {
        const q = new URL(req.url, 'http://x').searchParams;
        const items = [...all].reverse().slice(Number(q.get('offset')), Number(q.get('offset')) + 2);
        return { status: 200, body: { items, has_more: Number(q.get('offset')) + items.length < all.length } };
      });
      expect(JSON.parse(oldestFirst.stdout).map((t: { id: string }) => t.id)).toEqual(['t2', 't6']);
    });

    it('a single value the service filters by is one plain request', async ({ api }) => {
      const result = await api.run(['transactions', 'list', '--status', 'failed', '--limit', '1'], service);
      expect(JSON.parse(result.stdout).map((t: { id: string }) => t.id)).toEqual(['t5']);
      expect(api.server.requests).toHaveLength(1);
    });
  });

  it('--all walks every page with offset, stopping when has_more is false; total may be a string', async ({ api }) => {
    const page = (ids: string[], hasMore: boolean) => ({ status: 200, body: { resource: 'list', items: ids.map((id) => ({ id, status: 'succeeded', amount: '1.00' })), has_more: hasMore, total: '250' } });
    const result = await api.run(['transactions', 'list', '--all'], [page(['a', 'b'], true), page(['c'], true), page([], false)]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).map((t: { id: string }) => t.id)).toEqual(['a', 'b', 'c']);
    const offsets = api.server.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('offset'));
    expect(offsets).toEqual(['0', '2', '3']);
    expect(new URL(api.server.requests[0]!.url, 'http://x').searchParams.get('limit')).toBe('100');
  });

  it('asks for the next page while it reads one, once a full page has told the length; never past it', async ({ api }) => {
    const total = 250;
    const offsetOf = (req: { url: string }) => Number(new URL(req.url, 'http://x').searchParams.get('offset'));
    const pageAt = (offset: number) => {
      const items = Array.from({ length: Math.max(0, Math.min(100, total - offset)) }, (_, i) => ({ id: `t${offset + i}`, status: 'succeeded', amount: '1.00' }));
      return { status: 200, body: { items, has_more: offset + items.length < total, total } };
    };
    const args = ['transactions', 'list', '--all', '-o', 'ndjson', '--fields', 'id'];
    const whole = await api.run(args, (req) => pageAt(offsetOf(req)));
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stdout.trim().split('\n')).toHaveLength(total);
    expect(api.server.requests.map(offsetOf)).toEqual([0, 100, 200]);
    // The page at 100 is junk, found so only once it is parsed: the page after it was asked for
    // as it arrived, since the full page before it said 250 items; none past them.
    const cut = await api.run(args, (req) => (offsetOf(req) === 100 ? { status: 200, raw: '{"items": [', headers: { 'content-type': 'application/json' } } : pageAt(offsetOf(req))));
    expect(cut.code).toBe(8);
    expect(cut.stdout.trim().split('\n')).toHaveLength(100);
    expect(api.server.requests.map(offsetOf)).toEqual([0, 100, 200]);
  });

  it('large pages from a service that caps its page size: every item once, in order', async ({ api }) => {
    // Items of ~4 KB make a 100-item page large, so two are requested ahead (offsets 100 and
    // 200). From offset 100 the service answers at most 30 a page, so the request at 200 was a
    // wrong guess: it must be dropped and the list asked again from 130.
    const total = 250;
    const item = (i: number) => ({ id: `t${i}`, status: 'succeeded', amount: '1.00', description: 'x'.repeat(4000) });
    const result = await api.run(['transactions', 'list', '--all', '-o', 'ndjson', '--fields', 'id'], (req: { url: string }) => {
      const url = new URL(req.url, 'http://x');
      const offset = Number(url.searchParams.get('offset'));
      const count = Math.max(0, Math.min(offset < 100 ? 100 : 30, Number(url.searchParams.get('limit')), total - offset));
      return { status: 200, body: { items: Array.from({ length: count }, (_, i) => item(offset + i)), has_more: offset + count < total, total } };
    });
    expect(result.code, result.stderr).toBe(0);
    const ids = result.stdout.trim().split('\n').map((l) => JSON.parse(l).id);
    expect(ids).toEqual(Array.from({ length: total }, (_, i) => `t${i}`));
    const offsets = api.server.requests.map((r) => Number(new URL(r.url, 'http://x').searchParams.get('offset')));
    expect(offsets.slice(0, 3)).toEqual([0, 100, 200]);
    expect(offsets).toContain(130);
  });

  it('--limit caps the items across pages', async ({ api }) => {
    const page = (ids: string[]) => ({ status: 200, body: { items: ids.map((id) => ({ id, status: 'succeeded', amount: '1.00' })), has_more: true } });
    const result = await api.run(['transactions', 'list', '--limit', '3', '-o', 'ndjson'], [page(['a', 'b']), page(['c', 'd'])]);
    expect(result.stdout.trim().split('\n').map((l) => JSON.parse(l).id)).toEqual(['a', 'b', 'c']);
    expect(new URL(api.server.requests[1]!.url, 'http://x').searchParams.get('limit')).toBe('1');
  });

  it('direct card authorization body', async ({ api }) => {
    const result = await api.run(
      [...base, '--amount', '10,50', '--card-number', '4111 1111 1111 1111', '--holder-name', 'Maria Silva', '--exp-month', '7', '--exp-year', '2031', '--cvv', '123', '--installments', '3', '--description', 'Pedido 1', '--metadata', 'order=1', '--metadata', 'note=a=b'],
      [created()],
    );
    expect(result.code, result.stderr).toBe(0);
    const req = api.posts()[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe(`/v1/marketplaces/${MKT}/transactions`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.json).toEqual({
      amount: 1050,
      currency: 'BRL',
      payment_type: 'credit',
      on_behalf_of: SELLER,
      reference_id: 'ref-1',
      description: 'Pedido 1',
      capture: 'true',
      source: {
        usage: 'single_use',
        amount: 1050,
        currency: 'BRL',
        type: 'card',
        card: { card_number: '4111111111111111', holder_name: 'Maria Silva', expiration_month: '07', expiration_year: '2031', security_code: '123' },
        installment_plan: { number_installments: 3 },
      },
      installment_plan: { number_installments: 3 },
      metadata: { order: '1', note: 'a=b' },
    });
  });

  it('card id body, pre-authorization', async ({ api }) => {
    await api.run([...base, '--amount-cents', '700', '--card', CARD, '--no-capture'], [created({ status: 'pre_authorized' })]);
    expect(api.posts()[0]!.json).toEqual({
      amount: 700,
      currency: 'BRL',
      payment_type: 'credit',
      on_behalf_of: SELLER,
      reference_id: 'ref-1',
      capture: 'false',
      source: { usage: 'single_use', amount: 700, currency: 'BRL', type: 'card', card: { id: CARD } },
    });
  });

  it('customer id body', async ({ api }) => {
    await api.run([...base, '--amount', '3', '--customer', BUYER], [created()]);
    expect(api.posts()[0]!.json).toEqual({
      amount: 300,
      currency: 'BRL',
      payment_type: 'credit',
      on_behalf_of: SELLER,
      reference_id: 'ref-1',
      customer: BUYER,
      capture: 'true',
    });
  });

  it('simple boleto body', async ({ api }) => {
    await api.run([...base, '--payment-type', 'boleto', '--amount', '150', '--customer', BUYER, '--description', 'venda'], [created({ status: 'pending' })]);
    expect(api.posts()[0]!.json).toEqual({
      amount: '15000',
      currency: 'BRL',
      payment_type: 'boleto',
      on_behalf_of: SELLER,
      reference_id: 'ref-1',
      description: 'venda',
      customer: BUYER,
    });
  });

  it('complete boleto body with an inline payer', async ({ api }) => {
    const result = await api.run(
      [
        ...base, '--payment-type', 'boleto', '--amount', '150',
        '--due-date', `${NEXT}-12-10`, '--payment-limit-date', `${NEXT}-12-20`,
        '--instruction', 'Não receber após o vencimento', '--instruction', 'Pedido 1',
        '--late-fee', '2%', '--interest', '0.50', '--discount', `5%@${NEXT}-12-05`, '--discount', `2.00@${NEXT}-12-08`,
        '--payer-first-name', 'João', '--payer-last-name', 'Souza', '--payer-taxpayer-id', '529.982.247-25',
        '--payer-email', 'joao@example.com', '--payer-address-line1', 'Rua Augusta, 500', '--payer-city', 'São Paulo', '--payer-state', 'sp',
        '--payer-postal-code', '01310-100',
      ],
      [created({ status: 'pending' })],
    );
    expect(result.code, result.stderr).toBe(0);
    expect(api.posts()[0]!.json).toEqual({
      amount: '15000',
      currency: 'BRL',
      payment_type: 'boleto',
      on_behalf_of: SELLER,
      reference_id: 'ref-1',
      payment_method: {
        expiration_date: `${NEXT}-12-10`,
        payment_limit_date: `${NEXT}-12-20`,
        buyer: {
          first_name: 'João',
          last_name: 'Souza',
          taxpayer_id: '52998224725',
          email: 'joao@example.com',
          address: { line1: 'Rua Augusta, 500', city: 'São Paulo', state: 'SP', postal_code: '01310100' },
        },
        body_instructions: ['Não receber após o vencimento', 'Pedido 1'],
        billing_instructions: {
          late_fee: { mode: 'PERCENTAGE', percentage: 2, start_date: `${NEXT}-12-11` },
          interest: { mode: 'DAILY_AMOUNT', amount: 50, start_date: `${NEXT}-12-11` },
          discount: [
            { mode: 'PERCENTAGE', percentage: 5, limit_date: `${NEXT}-12-05` },
            { mode: 'FIXED', amount: 200, limit_date: `${NEXT}-12-08` },
          ],
        },
      },
    });
  });

  it('a create is fingerprinted without its reference and without card data: the same sale asked again is found, another is not', () => {
    const card = (referenceId: string, amountCents = 1050) =>
      buildCreateRequest({
        amountCents,
        currency: 'BRL',
        referenceId,
        onBehalfOf: SELLER,
        payment: { kind: 'card', card: { card_number: '4111111111111111', holder_name: 'M S', expiration_month: '12', expiration_year: '2031', security_code: '123' }, capture: true },
      });
    expect(createFingerprint(card('r1'))).toBe(createFingerprint(card('r2')));
    expect(createFingerprint(card('r1'))).not.toBe(createFingerprint(card('r1', 1051)));
    // Only the last four digits and the expiry of a card count: never the whole number.
    const shape = JSON.stringify(card('r1')).replace('4111111111111111', '4000000000001111');
    expect(createFingerprint(JSON.parse(shape))).toBe(createFingerprint(card('r1')));
    expect(createFingerprint(card('r1'))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('boleto with PIX body', async ({ api }) => {
    await api.run(
      [...base, '--payment-type', 'bolepix', '--amount', '80', '--customer', BUYER, '--due-date', `${NEXT}-12-10`, '--interest', '1%', '--late-fee', '3.00'],
      [created({ status: 'pending' })],
    );
    expect(api.posts()[0]!.json).toEqual({
      amount: 8000,
      currency: 'BRL',
      payment_type: 'bolepix',
      on_behalf_of: SELLER,
      reference_id: 'ref-1',
      customer: BUYER,
      payment_method: {
        due_at: `${NEXT}-12-10`,
        late_fee: { mode: 'FIXED', value: '300', start_at: `${NEXT}-12-11` },
        interest: { mode: 'PERCENTAGE', value: '1', frequency: 'MONTHLY', start_at: `${NEXT}-12-11` },
      },
    });
  });

  it('PIX body', async ({ api }) => {
    await api.run([...base, '--payment-type', 'pix', '--amount', '30', '--pix-expires-at', `${NEXT}-12-01T10:00:00Z`], [created({ status: 'pending' })]);
    expect(api.posts()[0]!.json).toEqual({
      amount: 3000,
      currency: 'BRL',
      payment_type: 'pix',
      on_behalf_of: SELLER,
      reference_id: 'ref-1',
      pix_expiration_date_time: `${NEXT}-12-01T10:00:00.000Z`,
    });
  });

  it('a reference_id is generated when none is given', async ({ api }) => {
    await api.run(['transactions', 'create', '--on-behalf-of', SELLER, '--payment-type', 'pix', '--amount', '1'], [created()]);
    expect(sentFields(api.posts()[0]!).reference_id).toMatch(/^payctl-[0-9a-f-]{36}$/);
  });

  it('a generated reference_id never holds twelve digits in a row (messages would mask it as a card number)', () => {
    for (let i = 0; i < 20_000; i += 1) expect(generatedReference()).not.toMatch(/\d{12}/);
  });

  it('card tokenization body, card read from --card-file -', async ({ home, recording }) => {
    const server = await recording([{ status: 200, body: { id: 'tok', resource: 'token' } }]);
    const card = { card_number: '5555555555554444', holder_name: 'Maria Silva', expiration_month: '1', expiration_year: '31', security_code: '1234' };
    const result = await payctl(['cards', 'tokenize', '--card-file', '-'], {
      home,
      stdin: JSON.stringify(card),
      env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: KEY, PAYCTL_MARKETPLACE_ID: '' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests[0]!.path).toBe('/v1/cards/tokens');
    expect(server.requests[0]!.json).toEqual({
      holder_name: 'Maria Silva',
      expiration_month: '01',
      expiration_year: '2031',
      card_number: '5555555555554444',
      security_code: '1234',
    });
  });

  it('an empty --card-file - is a usage error and nothing is sent', async ({ api }) => {
    const result = await api.run(['cards', 'tokenize', '--card-file', '-'], []);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--card-file: not valid JSON');
    expect(api.server.requests).toHaveLength(0);
  });
});

describe('POST retries and reconciliation', () => {

  it('a POST answered 429 is retried', async ({ api }) => {
    const result = await api.run([...base, ...card], [{ status: 429, body: providerError(429, 'rate_limit', 'slow'), headers: { 'retry-after': '0' } }, created()]);
    expect(result.code).toBe(0);
    // The reference is looked up once before sending: it names no transaction yet.
    expect(api.server.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'POST']);
  });

  it('a create that got a 5xx is found by its reference_id', async ({ api }) => {
    let lookups = 0;
    const result = await api.run([...base, ...card], (req) => {
      if (req.method === 'POST') return { status: 500, body: providerError(500, 'server_error', 'boom') };
      lookups += 1;
      const items = lookups === 1 ? [] : [{ id: TX, status: 'succeeded', reference_id: 'ref-1', amount: '10.00' }];
      return { status: 200, body: { items, has_more: false } };
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).id).toBe(TX);
    expect(api.server.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'GET']); // never re-sent
    expect(new URL(api.server.requests[2]!.url, 'http://x').searchParams.get('reference_id')).toBe('ref-1');
    expect(result.stderr).toContain(`The transaction with reference_id ref-1 was applied (confirmed from the service: ${TX}).`);
  });

  it('a create that is already there (same --reference-id) is returned, not charged again', async ({ api, home }) => {
    const result = await api.run([...base, ...card], (req) =>
      req.method === 'POST' ? asProviderWould(req, created()) : { status: 200, body: { items: [{ id: TX, status: 'succeeded', reference_id: 'ref-1', amount: '10.00', created_at: '2026-11-20T10:00:00.000Z' }], has_more: false } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).id).toBe(TX);
    expect(result.stderr).toBe(`warning: transaction ${TX} with reference_id ref-1 was already created at 2026-11-20T10:00:00.000Z; not charging again (--allow-duplicate-reference sends anyway)\n`);
    expect(api.posts()).toHaveLength(0);
    // Unless told to: then it sends without looking.
    const again = await payctl([...base, ...card, '--allow-duplicate-reference'], { home, env: { PAYCTL_BASE_URL: api.server.url, PAYCTL_API_KEY: KEY, PAYCTL_MARKETPLACE_ID: MKT } });
    expect(again.code, again.stderr).toBe(0);
    expect(api.posts()).toHaveLength(1);
  });

  it('a service that ignores the reference filter does not make another sale look like ours', async ({ api }) => {
    const other = { id: 'f'.repeat(32), status: 'succeeded', reference_id: 'someone-else', amount: '99.00' };
    const result = await api.run([...base, ...card], (req) => (req.method === 'POST' ? asProviderWould(req, created()) : { status: 200, body: { items: [other], has_more: false } }));
    expect(result.code, result.stderr).toBe(0);
    expect(api.posts()).toHaveLength(1);
  });

  it('a refund whose answer was lost is confirmed from the transaction history', async ({ api }) => {
    let gets = 0;
    const result = await api.run(['transactions', 'refund', TX, '--amount', '4', '--yes'], (req) => {
      if (req.method === 'POST') return { destroy: true };
      gets++;
      return gets === 1 ? tx('10.00', [{ id: 'h1', operation_type: 'created' }]) : tx('6.00', [{ id: 'h1' }, { id: 'h2', operation_type: 'void', status: 'succeeded', amount: '4.00' }]);
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).amount).toBe('6.00');
    expect(api.server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(api.server.requests.find((r) => r.method === 'POST')!.json).toEqual({ on_behalf_of: SELLER, amount: 400 });
  });

  it('a capture whose answer was lost is confirmed by a capture of its amount in the history', async ({ api }) => {
    let gets = 0;
    const result = await api.run(['transactions', 'capture', TX, '--yes'], (req) => {
      if (req.method === 'POST') return { destroy: true };
      gets++;
      return gets === 1 ? tx('10.00', [], 'pre_authorized') : tx('10.00', [{ id: 'c1', operation_type: 'capture', status: 'succeeded', amount: '10.00' }], 'succeeded');
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`The capture of transaction ${TX} was applied (confirmed from the service: c1).`);
    expect(api.server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

});
