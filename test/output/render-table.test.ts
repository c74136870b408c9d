import { describe, expect, it } from 'vitest';
import { HISTORY_COLUMNS } from '../../src/commands/balances/shared.js';
import { BUYER_COLUMNS, buyerRow } from '../../src/commands/buyers/shared.js';
import { SELLER_COLUMNS, sellerRow } from '../../src/commands/sellers/shared.js';
import { RECEIVABLE_COLUMNS } from '../../src/commands/receivables/list.js';
import { EVENT_COLUMNS } from '../../src/commands/webhooks/shared.js';
import { SUBSCRIPTION_COLUMNS, subscriptionRow } from '../../src/commands/subscriptions/shared.js';
import { renderList, renderObject } from '../../src/output/render.js';
import { Collector, TRANSACTION_COLUMNS, options, pagesOf, plain, transaction } from './helpers.js';

const ESC = '\x1b';

function lines(text: string): string[] {
  return text.replace(/\n$/, '').split('\n');
}

/** Column start offsets, from where each header word starts in the header line. */
function starts(header: string, words: string[]): number[] {
  return words.map((w) => header.indexOf(w));
}

describe('table: lists', () => {
  it('prints aligned rows under a header, no borders, money and dates formatted', async () => {
    const out = new Collector();
    const count = await renderList(
      pagesOf([transaction(1), transaction(22, { status: 'failed', amount: '3', payment_type: 'boleto' })]),
      options('table', out, { columns: TRANSACTION_COLUMNS }),
    );
    expect(count).toBe(2);
    expect(lines(out.text)).toEqual([
      'ID     STATUS          AMOUNT  TYPE    CREATED',
      'tx_1   succeeded  R$ 1.234,56  credit  2026-03-01 12:34',
      'tx_22  failed         R$ 3,00  boleto  2026-03-01 12:34',
    ]);
  });

  it('has no escape codes at all when colour is off', async () => {
    const out = new Collector();
    await renderList(pagesOf([transaction(1)], [transaction(2, { status: 'failed' })]), options('table', out, { columns: TRANSACTION_COLUMNS }));
    expect(out.text).not.toContain(ESC);
  });

  it('colours statuses and bolds the header when colour is on, without moving columns', async () => {
    const out = new Collector();
    const items = [
      transaction(1),
      transaction(2, { status: 'pending' }),
      transaction(3, { status: 'refunded' }),
      transaction(4, { status: 'partial_refunded' }),
    ];
    await renderList(pagesOf(items), options('table', out, { color: true, columns: TRANSACTION_COLUMNS }));
    const rows = lines(out.text);
    expect(rows[0]).toContain(`${ESC}[1mID${ESC}[22m`);
    expect(rows[1]).toContain(`${ESC}[32msucceeded${ESC}[39m`);
    expect(rows[2]).toContain(`${ESC}[33mpending${ESC}[39m`);
    expect(rows[3]).toContain(`${ESC}[31mrefunded${ESC}[39m`);
    expect(rows[4]).toContain(' partial_refunded ');
    expect(rows[4]).not.toMatch(/\x1b\[3\dm/);
    const uncoloured = new Collector();
    await renderList(pagesOf(items), options('table', uncoloured, { columns: TRANSACTION_COLUMNS }));
    expect(plain(out.text)).toBe(uncoloured.text);
  });

  it('fixes widths from the first page and cuts longer text on later pages with …', async () => {
    const out = new Collector();
    const columns = [
      { key: 'id', header: 'ID' },
      { key: 'description', header: 'DESCRIPTION' },
      { key: 'status', header: 'STATUS', kind: 'status' as const },
    ];
    await renderList(
      pagesOf(
        [{ id: 'a1', description: 'short one', status: 'paid' }],
        [{ id: 'a2', description: 'a much longer description than before', status: 'paid' }],
        [{ id: 'a3', description: 'ok', status: 'pre_authorized' }],
      ),
      options('table', out, { columns }),
    );
    const rows = lines(out.text);
    expect(rows[0]).toBe('ID  DESCRIPTION  STATUS');
    expect(rows[1]).toBe('a1  short one    paid');
    expect(rows[2]).toBe('a2  a much lon…  paid');
    // Statuses are never cut (a cut status means nothing); it overflows instead.
    expect(rows[3]).toBe('a3  ok           pre_authorized');
    const header = rows[0] as string;
    expect((rows[2] as string).indexOf('paid')).toBe(header.indexOf('STATUS'));
  });

  it('never cuts money, dates or ids; a wider later value overflows its row instead', async () => {
    const out = new Collector();
    await renderList(
      pagesOf([transaction(1, { amount: '1' })], [transaction(2, { id: 'tx_a_much_longer_identifier', amount: '99999999.99' })]),
      options('table', out, { columns: TRANSACTION_COLUMNS }),
    );
    expect(out.text).toContain('tx_a_much_longer_identifier');
    expect(out.text).toContain('R$ 99.999.999,99');
    expect(out.text).not.toContain('…');
  });

  it('keeps working with many pages, printing the header once', async () => {
    const out = new Collector();
    const pages = Array.from({ length: 20 }, (_, p) => Array.from({ length: 5 }, (_, i) => transaction(p * 5 + i)));
    expect(await renderList(pagesOf(...pages), options('table', out, { columns: TRANSACTION_COLUMNS }))).toBe(100);
    const rows = lines(out.text);
    expect(rows).toHaveLength(101);
    expect(rows.filter((r) => r.startsWith('ID ')).length).toBe(1);
  });

  it('formats money in the item currency', async () => {
    const out = new Collector();
    await renderList(pagesOf([transaction(1, { currency: 'USD' })]), options('table', out, { columns: TRANSACTION_COLUMNS }));
    expect(out.text).toContain('USD 1.234,56');
    expect(out.text).not.toContain('R$');
  });

  it('uses --fields as the columns, in that order, with known headers and kinds', async () => {
    const out = new Collector();
    await renderList(
      pagesOf([transaction(1)], [transaction(2, { payment_method: null })]),
      options('table', out, { columns: TRANSACTION_COLUMNS, fields: ['amount', 'payment_method.card_brand', 'id', 'missing'] }),
    );
    const rows = lines(out.text);
    expect(rows[0]).toBe('     AMOUNT  PAYMENT_METHOD.CARD_BRAND  ID    MISSING');
    expect(rows[1]).toBe('R$ 1.234,56  Visa                       tx_1');
    expect(rows[2]).toBe('R$ 1.234,56                             tx_2');
    expect(out.text).not.toContain('STATUS');
  });

  it('chooses id and the first few plain fields when no columns are given', async () => {
    const out = new Collector();
    await renderList(
      pagesOf([{ name: 'Maria', nested: { a: 1 }, id: 'b1', list: [1], email: 'm@example.com', created_at: '2026-01-02T03:04:05Z' }]),
      options('table', out),
    );
    expect(lines(out.text)).toEqual(['ID  NAME   EMAIL          CREATED_AT', 'b1  Maria  m@example.com  2026-01-02 03:04']);
  });

  it('prints nothing for an empty list', async () => {
    const out = new Collector();
    expect(await renderList(pagesOf([], []), options('table', out, { columns: TRANSACTION_COLUMNS }))).toBe(0);
    expect(out.text).toBe('');
  });

  it('keeps rows on one line and drops control characters from API text', async () => {
    const out = new Collector();
    await renderList(
      pagesOf([{ id: 'a', description: 'two\nlines\tand \x1b[31mred\x1b[0m \u202eevil' }]),
      options('table', out, { columns: [{ key: 'id', header: 'ID' }, { key: 'description', header: 'DESCRIPTION' }] }),
    );
    expect(lines(out.text)).toHaveLength(2);
    expect(out.text).not.toContain(ESC);
    expect(out.text).not.toContain('\u202e');
    expect(out.text).toContain('two lines and red evil');
  });

  it('ends no line in whitespace', async () => {
    const out = new Collector();
    await renderList(pagesOf([{ id: 'a', d: 'long value' }, { id: 'b', d: '' }]), options('table', out));
    for (const line of lines(out.text)) expect(line).toBe(line.trimEnd());
  });

  it('fits a terminal by narrowing the widest text column', async () => {
    const out = Object.assign(new Collector(), { isTTY: true, columns: 40 });
    await renderList(
      pagesOf([{ id: 'tx_1', description: 'x'.repeat(80), status: 'paid' }]),
      options('table', out),
    );
    for (const line of lines(out.text)) expect(line.length).toBeLessThanOrEqual(40);
    expect(out.text).toContain('tx_1');
    expect(out.text).toContain('…');
  });

  it('aligns accented and wide characters by display width', async () => {
    const out = new Collector();
    await renderList(
      pagesOf([{ id: 'a', city: 'São Paulo', tag: 'x' }, { id: 'b', city: 'Sa\u0303o', tag: 'y' }, { id: 'c', city: '東京', tag: 'z' }, { id: 'd', city: '✅ ok', tag: 'w' }]),
      options('table', out),
    );
    // "São" with a combining tilde is 3 columns wide; 東京 takes 4, ✅ takes 2.
    expect(lines(out.text)).toEqual([
      'ID  CITY       TAG',
      'a   São Paulo  x',
      'b   Sa\u0303o        y',
      'c   東京       z',
      'd   ✅ ok      w',
    ]);
  });
});

/** Where each column starts in a line of plain ASCII text, given the header words. */
function cellStarts(line: string, header: string, words: string[]): number[] {
  return starts(header, words).map((start) => {
    // A cell starts at its column's offset: the character before it is a gap (or the line start).
    expect(start === 0 || line[start - 1] === ' ').toBe(true);
    return start;
  });
}

describe('table: widths pinned per stream (cli-table3)', () => {
  const columns = [
    { key: 'id', header: 'ID' },
    { key: 'amount', header: 'AMOUNT', kind: 'money' as const },
    { key: 'description', header: 'DESCRIPTION' },
    { key: 'status', header: 'STATUS', kind: 'status' as const },
    { key: 'created_at', header: 'CREATED', kind: 'date' as const },
  ];
  const item = (n: number, description: string, amount = '10', status = 'paid') => ({
    id: `tx_${n}`,
    amount,
    description,
    status,
    created_at: '2026-03-01T12:34:56Z',
  });

  it('lines every later page up with the first page, whatever the later pages hold', async () => {
    const out = new Collector();
    await renderList(
      pagesOf(
        [item(1, 'first page text'), item(2, 'x')],
        [item(3, 'a'), item(4, 'b')],
        [item(5, 'a description much longer than anything on the first page'), item(6, '')],
        [item(7, 'ok', '1', 'failed')],
      ),
      options('table', out, { columns }),
    );
    const rows = lines(out.text);
    expect(rows).toEqual([
      'ID      AMOUNT  DESCRIPTION      STATUS  CREATED',
      'tx_1  R$ 10,00  first page text  paid    2026-03-01 12:34',
      'tx_2  R$ 10,00  x                paid    2026-03-01 12:34',
      'tx_3  R$ 10,00  a                paid    2026-03-01 12:34',
      'tx_4  R$ 10,00  b                paid    2026-03-01 12:34',
      'tx_5  R$ 10,00  a description …  paid    2026-03-01 12:34',
      'tx_6  R$ 10,00                   paid    2026-03-01 12:34',
      'tx_7   R$ 1,00  ok               failed  2026-03-01 12:34',
    ]);
    const header = rows[0] as string;
    for (const row of rows.slice(1)) {
      // Every row's status and date start where the header's STATUS and CREATED start, and its amount ends under AMOUNT.
      expect(row.indexOf('2026')).toBe(header.indexOf('CREATED'));
      expect(row.search(/paid|failed/)).toBe(header.indexOf('STATUS'));
      expect(row.indexOf(',') + 3).toBe(header.indexOf('AMOUNT') + 'AMOUNT'.length);
    }
  });

  it('keeps the first page widths when colour is on', async () => {
    const coloured = new Collector();
    const bare = new Collector();
    const pages = () => pagesOf([item(1, 'short')], [item(2, 'much longer text', '5', 'failed'), item(3, 'x', '7', 'new')]);
    await renderList(pages(), options('table', coloured, { columns, color: true }));
    await renderList(pages(), options('table', bare, { columns }));
    expect(coloured.text).toContain('\x1b[31mfailed\x1b[39m');
    expect(coloured.text).toContain('\x1b[33mnew\x1b[39m');
    expect(plain(coloured.text)).toBe(bare.text);
    const rows = lines(bare.text);
    for (const row of rows.slice(1)) expect(row.indexOf('2026')).toBe((rows[0] as string).indexOf('CREATED'));
  });

  it('never cuts an id or an amount on a later page: only that row overflows, the rest of the page stays aligned', async () => {
    const out = new Collector();
    await renderList(
      pagesOf(
        [item(1, 'abc')],
        [item(2, 'abc'), { ...item(3, 'abc', '123456789.99'), id: 'tx_a_much_longer_identifier' }, item(4, 'abc')],
      ),
      options('table', out, { columns }),
    );
    expect(lines(out.text)).toEqual([
      'ID      AMOUNT  DESCRIPTION  STATUS  CREATED',
      'tx_1  R$ 10,00  abc          paid    2026-03-01 12:34',
      'tx_2  R$ 10,00  abc          paid    2026-03-01 12:34',
      'tx_a_much_longer_identifier  R$ 123.456.789,99  abc          paid    2026-03-01 12:34',
      'tx_4  R$ 10,00  abc          paid    2026-03-01 12:34',
    ]);
    expect(out.text).not.toContain('…');
  });

  it('never cuts ids, money, statuses or dates to fit a terminal; text columns give way', async () => {
    const out = Object.assign(new Collector(), { isTTY: true, columns: 90 });
    await renderList(
      pagesOf([{ ...item(1, 'a long description of the order', '98765432.10', 'pre_authorized'), id: 'tx_0123456789abcdef' }]),
      options('table', out, { columns }),
    );
    const text = out.text;
    for (const whole of ['tx_0123456789abcdef', 'R$ 98.765.432,10', 'pre_authorized', '2026-03-01 12:34']) expect(text).toContain(whole);
    // Nothing but the description could give way; it is cut just enough to fit.
    expect(lines(text)[1]).toContain('  a long descripti…  ');
    for (const line of lines(text)) expect(line.length).toBeLessThanOrEqual(90);
  });

  it('prints each row as a block when not even the columns that are never cut fit', async () => {
    const out = Object.assign(new Collector(), { isTTY: true, columns: 30 });
    await renderList(
      pagesOf([{ ...item(1, 'a long description of the order', '98765432.10', 'pre_authorized'), id: 'tx_0123456789abcdef' }], [item(2, 'short')]),
      options('table', out, { columns }),
    );
    expect(lines(out.text)).toEqual([
      'ID           tx_0123456789abcdef',
      'AMOUNT       R$ 98.765.432,10',
      'DESCRIPTION  a long descripti…',
      'STATUS       pre_authorized',
      'CREATED      2026-03-01 12:34',
      '',
      'ID           tx_2',
      'AMOUNT       R$ 10,00',
      'DESCRIPTION  short',
      'STATUS       paid',
      'CREATED      2026-03-01 12:34',
    ]);
  });

  it('drops text columns, the last first, before cutting them below COMFORT_WIDTH', async () => {
    const cols = [
      { key: 'id', header: 'ID' },
      { key: 'amount', header: 'AMOUNT', kind: 'money' as const },
      { key: 'type', header: 'TYPE' },
      { key: 'description', header: 'DESCRIPTION' },
      { key: 'created_at', header: 'CREATED', kind: 'date' as const },
    ];
    const row = { id: 'tx_1', amount: '10', type: 'credit', description: 'Generated sale 3001', created_at: '2026-03-01T12:34:00Z' };
    const at = async (columns: number) => {
      const out = Object.assign(new Collector(), { isTTY: true, columns });
      await renderList(pagesOf([row]), options('table', out, { columns: cols }));
      return lines(out.text);
    };
    const headers = (rows: string[]) => (rows[0] as string).split(/ +/);
    expect(headers(await at(80))).toEqual(['ID', 'AMOUNT', 'TYPE', 'DESCRIPTION', 'CREATED']);
    expect((await at(80))[1]).toContain('Generated sale 3001');
    // Cut first, as far as COMFORT_WIDTH (12)…
    expect(headers(await at(56))).toEqual(['ID', 'AMOUNT', 'TYPE', 'DESCRIPTION', 'CREATED']);
    expect((await at(56))[1]).toContain('  Generated sal…  ');
    expect(headers(await at(54))).toEqual(['ID', 'AMOUNT', 'TYPE', 'DESCRIPTION', 'CREATED']);
    expect((await at(54))[1]).toContain('  Generated s…  ');
    // …then dropped, the last text column first.
    expect(headers(await at(45))).toEqual(['ID', 'AMOUNT', 'TYPE', 'CREATED']);
    expect(headers(await at(36))).toEqual(['ID', 'AMOUNT', 'CREATED']);
    for (const width of [80, 56, 54, 45, 36]) for (const line of await at(width)) expect(line.length).toBeLessThanOrEqual(width);
  });

  it('drops the ids of other things (a plan, a transfer) after text, and never cuts the row\'s own id', async () => {
    const id = (c: string) => c.repeat(32);
    const subscription = subscriptionRow({ uuid: id('c'), customer: id('b'), plan: id('p'), amount: 2490, status: 'active', due_date: '2026-12-05' });
    const at = async (columns: number, cols = SUBSCRIPTION_COLUMNS, item: Record<string, unknown> = subscription) => {
      const out = Object.assign(new Collector(), { isTTY: true, columns });
      await renderList(pagesOf([item]), options('table', out, { columns: cols }));
      return out.text.trimEnd().split('\n');
    };
    const wide = await at(140);
    expect(wide[0]?.split(/ +/)).toEqual(['ID', 'CUSTOMER', 'PLAN', 'AMOUNT', 'STATUS', 'NEXT', 'DUE']);
    // At 100 columns (where the subscription id was cut to "c76dd…"): the plan goes, the id stays.
    const hundred = await at(100);
    expect(hundred[0]?.split(/ +/)).toEqual(['ID', 'CUSTOMER', 'AMOUNT', 'STATUS', 'NEXT', 'DUE']);
    expect(hundred[1]).toMatch(new RegExp(`^${id('c')}  ${id('b')}  +R\\$ 24,90  active +2026-12-05$`));
    const eighty = await at(80);
    expect(eighty[1]).toMatch(new RegExp(`^${id('c')}  +R\\$ 24,90  active +2026-12-05$`));
    const history = { created_at: '2026-03-01T12:34:00Z', operation: 'sale', amount: '10.00', balance: '1234.56', transaction: id('t'), transfer: null };
    expect((await at(100, HISTORY_COLUMNS, history))[0]?.split(/ +/)).toEqual(['DATE', 'OPERATION', 'AMOUNT', 'BALANCE', 'TRANSACTION', 'TRANSFER']);
    expect((await at(90, HISTORY_COLUMNS, history))[0]?.split(/ +/)).toEqual(['DATE', 'OPERATION', 'AMOUNT', 'BALANCE', 'TRANSACTION']);
    expect((await at(100, HISTORY_COLUMNS, history))[1]).toContain(id('t'));
    for (const width of [60, 80, 100, 140]) for (const line of await at(width)) expect(line.length).toBeLessThanOrEqual(width);
  });

  it('never cuts a masked CPF or CNPJ: it shows whole, or its column goes like a text column', async () => {
    const at = async (columns: number, items: Record<string, unknown>[], cols: typeof BUYER_COLUMNS) => {
      const out = Object.assign(new Collector(), { isTTY: true, columns });
      await renderList(pagesOf(items), options('table', out, { columns: cols }));
      return lines(out.text);
    };
    const buyer = (n: number, taxpayer_id: string) =>
      buyerRow({ id: String(n).repeat(32), first_name: 'Ana Beatriz', last_name: 'Souza Figueiredo Albuquerque', email: 'ana.beatriz.souza@example.com.br', taxpayer_id, created_at: '2026-03-01T12:34:00Z' });
    const buyers = await at(80, [buyer(1, '11144477735'), buyer(2, '39053344705')], BUYER_COLUMNS);
    expect(buyers[0]?.split(/ +/)).toEqual(['ID', 'NAME', 'CPF/CNPJ', 'CREATED']);
    expect(buyers[1]).toContain('  ***.***.*77-35  ');
    expect(buyers[2]).toContain('  ***.***.*47-05  ');
    // A company's CNPJ, where the seller's name and e-mail leave it too little room at 90 columns
    // (it was cut to "**.***.***/…"): whole, or not shown at all.
    const seller = sellerRow({ id: 's'.repeat(32), type: 'business', business_name: 'Loja Sandbox Ltda', business_email: 'financeiro@lojasandbox.com.br', ein: '11222333000181', created_at: '2026-03-01T12:34:00Z' });
    for (const width of [80, 90, 100, 120, 140]) {
      const shown = await at(width, [seller], SELLER_COLUMNS);
      expect(shown.join('\n'), `${width}`).not.toMatch(/\*[^ ]*…/);
      if (shown[0]?.includes('CPF/CNPJ')) expect(shown[1], `${width}`).toContain('**.***.***/**01-81');
      for (const line of shown) expect(line.length).toBeLessThanOrEqual(width);
    }
  });

  it('brings back a column dropped early when dropping a later one made room for it', async () => {
    const receivable = { installment: '1', expected_on: '2027-01-23T00:00:00.000Z', gross_amount: '210.00', fee: '6.28', amount: '203.72', status: 'pending', id: 'r'.repeat(32) };
    const out = Object.assign(new Collector(), { isTTY: true, columns: 80 });
    await renderList(pagesOf([receivable]), options('table', out, { columns: RECEIVABLE_COLUMNS }));
    // INSTALLMENT (text) goes first, the receivable's id next; then INSTALLMENT fits again.
    expect(lines(out.text)[0]?.split(/ +/)).toEqual(['INSTALLMENT', 'EXPECTED', 'GROSS', 'FEE', 'NET', 'STATUS']);
    const event = { created_at: '2026-03-01T12:34:00Z', type: 'transaction.succeeded', id: 'e'.repeat(32), payload: { object: { id: 't'.repeat(32) } } };
    const events = Object.assign(new Collector(), { isTTY: true, columns: 80 });
    await renderList(pagesOf([event]), options('table', events, { columns: EVENT_COLUMNS }));
    // What happened is never dropped; the object's id is.
    expect(lines(events.text)[0]?.split(/ +/)).toEqual(['TIME', 'TYPE', 'ID']);
  });

  it('fits every line into the terminal width given for a TTY, whatever the width', async () => {
    const wide = {
      id: 'c_1',
      name: 'Maria da Silva Souza Pereira',
      email: 'maria.silva.souza@example.com.br',
      description: 'Cliente desde 2019, prefere boleto e PIX, nunca cartão de crédito',
    };
    for (const width of [20, 40, 50, 60, 80, 100]) {
      const out = Object.assign(new Collector(), { isTTY: true, columns: width });
      await renderList(pagesOf([wide], [{ ...wide, id: 'c_2', description: 'x'.repeat(200) }]), options('table', out));
      const rows = lines(out.text);
      for (const row of rows) expect(row.length, `${width}: ${row}`).toBeLessThanOrEqual(width);
      expect(out.text).toMatch(/^c_1 {2}/m);
      expect(out.text).toMatch(/^c_2 {2}/m);
    }
    // The widest column gives way first: at 100 columns only DESCRIPTION is cut.
    const out = Object.assign(new Collector(), { isTTY: true, columns: 100 });
    await renderList(pagesOf([wide]), options('table', out));
    expect(out.text).toContain(wide.name);
    expect(out.text).toContain(wide.email);
    expect(out.text).toContain('…');
  });

  it('cuts a later row\'s text further, or prints it as a block, rather than run past the terminal', async () => {
    const out = Object.assign(new Collector(), { isTTY: true, columns: 60 });
    await renderList(
      pagesOf([item(1, 'first description')], [{ ...item(2, 'second description', '123456789.99', 'pre_authorized'), id: 'tx_a_much_longer_identifier_0123456789' }]),
      options('table', out, { columns }),
    );
    for (const line of lines(out.text)) expect(line.length, line).toBeLessThanOrEqual(60);
    for (const whole of ['tx_a_much_longer_identifier_0123456789', 'R$ 123.456.789,99', 'pre_authorized']) expect(out.text).toContain(whole);
  });

  it('does not fit a pipe: full widths when stdout is not a terminal', async () => {
    const out = Object.assign(new Collector(), { columns: 20 });
    await renderList(pagesOf([{ id: 'a', description: 'y'.repeat(60) }]), options('table', out));
    expect(out.text).toContain('y'.repeat(60));
  });

  it('fits wide characters by display width and never leaves half an emoji', async () => {
    const out = Object.assign(new Collector(), { isTTY: true, columns: 16 });
    const cols = [{ key: 'id', header: 'ID' }, { key: 'note', header: 'NOTE' }];
    await renderList(
      pagesOf([{ id: 'a1', note: '東京都東京都東京都' }, { id: 'a2', note: 'abcd😀xyz and more' }, { id: 'a3', note: '✅✅✅✅✅✅✅' }]),
      options('table', out, { columns: cols }),
    );
    // NOTE is 12 columns: 東 and 😀 take two, a cut ends in "…".
    expect(lines(out.text)).toEqual(['ID  NOTE', 'a1  東京都東京…', 'a2  abcd😀xyz a…', 'a3  ✅✅✅✅✅…']);
    const cut = new Collector();
    await renderList(pagesOf([{ id: 'b1', note: 'abcdef' }], [{ id: 'b2', note: 'abcd😀xyz' }]), options('table', cut, { columns: cols }));
    // cli-table3 cuts by UTF-16 unit: "abcd" + half of 😀 + "…"; the half is dropped, the width kept.
    expect(lines(cut.text)).toEqual(['ID  NOTE', 'b1  abcdef', 'b2  abcd…']);
    expect(cut.text).not.toMatch(/[\ud800-\udfff](?![\udc00-\udfff])|\ufffd/);
  });

  it('sanitises API text before cli-table3 sees it, so widths and cuts count only what is shown', async () => {
    const out = new Collector();
    const cols = [{ key: 'id', header: 'ID' }, { key: 'note', header: 'NOTE' }, { key: 'status', header: 'STATUS', kind: 'status' as const }];
    await renderList(
      pagesOf([{ id: 'a', note: 'plain text', status: 'paid' }], [{ id: 'b', note: '\x1b[31mred and more\x1b[0m\u202e!', status: 'paid' }]),
      options('table', out, { columns: cols, color: true }),
    );
    const rows = lines(plain(out.text));
    expect(rows[2]).toBe('b   red and m…  paid');
    expect(out.text).not.toContain('\u202e');
    expect(out.text).not.toMatch(/\x1b\[31mred/);
  });
});

describe('table: no trailing whitespace', () => {
  it('on any line: empty last cells, short last cells, colour, single objects', async () => {
    const texts: string[] = [];
    for (const color of [false, true]) {
      const list = new Collector();
      await renderList(
        pagesOf([{ id: 'a', d: 'long value' }, { id: 'b', d: '' }], [{ id: 'c', d: 'x' }, { id: 'd', d: null }]),
        options('table', list, { color }),
      );
      texts.push(list.text);
      const tx = new Collector();
      await renderList(pagesOf([transaction(1), transaction(2, { created_at: null })]), options('table', tx, { color, columns: TRANSACTION_COLUMNS }));
      texts.push(tx.text);
      const one = new Collector();
      await renderObject({ id: 'a', description: '', status: 'paid', note: 'x ', tags: [] }, options('table', one, { color }));
      texts.push(one.text);
    }
    for (const text of texts) {
      expect(text.endsWith('\n')).toBe(true);
      for (const line of lines(text)) expect(JSON.stringify(line)).toBe(JSON.stringify(line.trimEnd()));
    }
  });
});

describe('table: single object', () => {
  it('on a terminal, a value longer than the room beside its key wraps within its column; piped, it stays whole', async () => {
    const barcode = '34197167200000417349214027097699767295035885';
    const obj = { id: 'tx_1', payment_method: { barcode, bank_code: '341' } };
    const tty = Object.assign(new Collector(), { isTTY: true, columns: 40 });
    await renderObject(obj, options('table', tty));
    const lines = tty.text.trimEnd().split('\n');
    expect(lines.every((line) => line.length <= 40)).toBe(true);
    // The continuation starts under the value column, not at the terminal's first column.
    const keyWidth = 'payment_method.bank_code'.length;
    const room = 40 - keyWidth - 2;
    expect(lines[1]).toBe(`${'payment_method.barcode'.padEnd(keyWidth)}  ${barcode.slice(0, room)}`);
    expect(lines[2]).toBe(`${' '.repeat(keyWidth + 2)}${barcode.slice(room, 2 * room)}`);
    // With colour on, the (bold) keys are never wrapped: only the value column is.
    const coloured = Object.assign(new Collector(), { isTTY: true, columns: 40 });
    await renderObject(obj, options('table', coloured, { color: true }));
    expect(plain(coloured.text)).toBe(tty.text);
    const piped = new Collector();
    await renderObject(obj, options('table', piped));
    expect(piped.text).toContain(`${'payment_method.barcode'.padEnd(keyWidth)}  ${barcode}\n`);
  });

  it('on a terminal, a sentence longer than the room beside its key wraps between its words, an amount kept whole', async () => {
    const rule = "refunds above R$ 50,00 by AI agents need approval; up to R$ 50,00 the person at the agent's client confirms instead";
    const tty = Object.assign(new Collector(), { isTTY: true, columns: 60 });
    await renderObject({ id: 'rule_1', rule }, options('table', tty));
    const lines = tty.text.trimEnd().split('\n');
    expect(lines.every((line) => line.length <= 60)).toBe(true);
    const values = lines.slice(1).map((line) => line.slice('rule'.length + 2));
    // Every line ends at a word's end, and the words read back as the sentence.
    expect(values.join(' ')).toBe(rule);
    for (const line of values) expect(line).not.toMatch(/^\S*R\$$|^\d/);
    const piped = new Collector();
    await renderObject({ id: 'rule_1', rule }, options('table', piped));
    expect(piped.text).toContain(rule);
  });

  it('prints field/value rows with dotted keys, arrays as counts, formatted values', async () => {
    const out = new Collector();
    await renderObject(
      {
        id: 'tx_1',
        status: 'succeeded',
        amount: '1234.5',
        original_amount: '2000',
        fees: '0.5',
        currency: 'BRL',
        created_at: '2026-03-01T12:34:56+00:00',
        expected_on: '2026-04-01',
        payment_method: { card_brand: 'Visa', holder_name: 'Maria Silva' },
        split: { fixed_amount: '10' },
        history: [{ amount: '1' }, { amount: '2' }, { amount: '3' }],
        tags: ['one', 'two'],
        voided: false,
        description: null,
      },
      options('table', out),
    );
    expect(lines(out.text)).toEqual([
      'id                          tx_1',
      'status                      succeeded',
      'amount                      R$ 1.234,50',
      'original_amount             R$ 2.000,00',
      'fees                        R$ 0,50',
      'currency                    BRL',
      'created_at                  2026-03-01 12:34',
      'expected_on                 2026-04-01',
      'payment_method.card_brand   Visa',
      'payment_method.holder_name  Maria Silva',
      'split.fixed_amount          R$ 10,00',
      'history                     [3 items]',
      'tags                        one, two',
      'voided                      false',
      'description',
      // The zone of the time it shows (an object of days alone names none).
      'times in UTC',
    ]);
    const days = new Collector();
    await renderObject({ id: 'r_1', expected_on: '2026-04-01', paid_at: '2026-04-01T00:00:00Z' }, options('table', days));
    expect(days.text).not.toContain('times in');
  });

  it('uses the object currency for money', async () => {
    const out = new Collector();
    await renderObject({ amount: '1234.56', currency: 'USD' }, options('table', out));
    expect(out.text).toContain('USD 1.234,56');
  });

  it('shows only --fields rows, in order, selecting into arrays and objects', async () => {
    const out = new Collector();
    await renderObject(
      transaction(1),
      options('table', out, { fields: ['amount', 'history.1.amount', 'history.status', 'payment_method', 'missing', 'id'] }),
    );
    expect(lines(out.text)).toEqual([
      'amount                       R$ 1.234,56',
      'history.1.amount             R$ 10,00',
      'history.status               succeeded, refunded',
      'payment_method.card_brand    Visa',
      'payment_method.last4_digits  1111',
      'payment_method.holder_name   Maria Silva',
      'missing',
      'id                           tx_1',
    ]);
  });

  it('expands an array of objects selected by --fields', async () => {
    const out = new Collector();
    await renderObject(transaction(1), options('table', out, { fields: ['history'] }));
    expect(lines(out.text)).toEqual([
      'history.0.id      h1a',
      'history.0.amount  R$ 1.234,56',
      'history.0.status  succeeded',
      'history.1.id      h1b',
      'history.1.amount  R$ 10,00',
      'history.1.status  refunded',
    ]);
  });

  it('colours the status only when colour is on', async () => {
    const coloured = new Collector();
    await renderObject(transaction(1, { status: 'failed' }), options('table', coloured, { color: true }));
    expect(coloured.text).toContain(`${ESC}[31mfailed${ESC}[39m`);
    const bare = new Collector();
    await renderObject(transaction(1, { status: 'failed' }), options('table', bare));
    expect(bare.text).not.toContain(ESC);
    expect(plain(coloured.text)).toBe(bare.text);
  });

  it('prints a scalar as a line', async () => {
    const out = new Collector();
    await renderObject('ok', options('table', out));
    expect(out.text).toBe('ok\n');
  });
});

