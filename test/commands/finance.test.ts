import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { SANDBOX_BUYER_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { parse as parseCsv } from '../helpers/csv.js';
import { payctl } from '../helpers/run.js';
import { recordingServer, type RecordedRequest, type Reply } from '../helpers/recording-server.js';
import { cardFlags, createCard, expectError, expectJson, expectUsage, present, run } from './helpers.js';

// Finance from the CLI: balances, history, transfers and future entries against the embedded
// sandbox after a scripted day; exports in CSV and NDJSON that stream page by page; what an
// interrupted export leaves behind; progress on a terminal only.
const json = async <const A extends readonly string[]>(home: string, args: A) => expectJson(await run(home, [...args, '-o', 'json']));
const cents = (decimal: string): number => Math.round(Number(decimal) * 100);

/** A day at the till: two card sales (one in 3x), a PIX paid, a partial and a full refund. */
async function scriptedDay(home: string) {
  const card = await createCard(home, '100.00');
  const threeX = await createCard(home, '300.00', ['--installments', '3']);
  const refunded = await createCard(home, '50.00');
  const pix = await json(home, ['transactions', 'create', '--payment-type', 'pix', '--amount', '25']);
  await json(home, ['sandbox', 'pay', pix.id]);
  await json(home, ['transactions', 'refund', card.id, '--amount', '40', '--yes']);
  await json(home, ['transactions', 'refund', refunded.id, '--yes']);
  return [card, threeX, refunded, pix] as const;
}

describe('balances after a scripted day of sales and refunds', () => {
  it('the seller balance is the sum of its history; history, accounts and current agree', async ({ home }) => {
    await scriptedDay(home);
    const balance = await json(home, ['balances', 'get']);
    expect(balance).toMatchObject({ resource: 'balance', owner: SANDBOX_SELLER_ID, type: 'seller' });
    const history = await json(home, ['balances', 'history', '--all']);
    expect(history.map((e) => e.operation).sort()).toEqual(['refund', 'refund', 'sale', 'sale', 'sale', 'sale']);
    expect(history.reduce((total, e) => total + cents(e.amount), 0)).toBe(cents(balance.current_balance));
    const account = present(balance.account, 'the balance account');
    const byAccount = await json(home, ['balances', 'history', '--account', account, '--all']);
    expect(byAccount).toEqual(history);
    expect(await json(home, ['balances', 'history', '--operation', 'refund'])).toHaveLength(2);
    expect((await json(home, ['balances', 'current'])).current_balance).toBe(balance.current_balance);
    expect((await json(home, ['balances', 'get', '--account', account])).current_balance).toBe(balance.current_balance);

    // The net of every succeeded transaction, fees taken, is what the balance holds.
    const transactions = await json(home, ['transactions', 'list', '--all']);
    const net = transactions.filter((t) => t.status === 'succeeded').reduce((total, t) => total + cents(t.amount) - cents(t.fees), 0);
    expect(cents(balance.current_balance)).toBe(net);

    const accounts = await json(home, ['balances', 'accounts', '--buyer', SANDBOX_BUYER_ID]);
    expect(accounts).toEqual([expect.objectContaining({ type: 'buyer', owner: SANDBOX_BUYER_ID, current_balance: '0.00' })]);
    expect(await json(home, ['balances', 'history', '--buyer', SANDBOX_BUYER_ID])).toEqual([]);
  });

  it('a table of history ends with credits, debits and net', async ({ home }) => {
    await scriptedDay(home);
    const balance = await json(home, ['balances', 'get']);
    const table = await run(home, ['balances', 'history', '--no-color'], { tty: true });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^DATE\s+OPERATION\s+AMOUNT\s+BALANCE\s+TRANSACTION\s+TRANSFER/);
    const [last, zone] = table.stdout.trimEnd().split('\n').slice(-2) as [string, string];
    expect(zone).toBe('times in UTC');
    expect(last).toMatch(/^6 entries {2}credits R\$ [\d.,]+ {2}debits -R\$ [\d.,]+ {2}net R\$ [\d.,]+$/);
    expect(last).toContain(`net R$ ${balance.current_balance.replace('.', ',')}`);
  });
});

describe('transfers and future entries on the sandbox clock', () => {
  it('receivables are future entries until their date, then transfers; totals, get and transactions', async ({ home }) => {
    const [card, threeX] = await scriptedDay(home);
    const future = await json(home, ['future-entries', 'list', '--all']);
    expect(future.map((f) => f.installment)).toEqual(['1', '1', '1', '2', '3']);
    const nextMonth = present(present(future[1]).expected_on).slice(0, 10);
    expect(await json(home, ['future-entries', 'list', '--from', nextMonth, '--to', nextMonth])).toHaveLength(2);

    await json(home, ['sandbox', 'advance', '--days', '31']);
    const transfers = await json(home, ['transfers', 'list', '--all', '--sort', 'asc']);
    expect(transfers).toHaveLength(3);
    expect(await json(home, ['transfers', 'list', '--status', 'failed'])).toEqual([]);
    const cardTransfer = present(transfers.find((t) => t.transactions[0] === card.id), 'the card sale\'s transfer');
    expect(await json(home, ['transfers', 'get', cardTransfer.id])).toEqual(cardTransfer);
    expect((await json(home, ['transfers', 'transactions', cardTransfer.id])).map((t) => t.id)).toEqual([card.id]);
    expect((await json(home, ['future-entries', 'list'])).map((f) => [f.transaction, f.installment])).toEqual([
      [threeX.id, '2'],
      [threeX.id, '3'],
    ]);

    const table = await run(home, ['transfers', 'list', '--no-color'], { tty: true });
    expect(table.stdout).toMatch(/^ID\s+DATE\s+AMOUNT\s+STATUS\s+DESCRIPTION/);
    const gross = transfers.reduce((t, x) => t + cents(x.amount), 0);
    const money = `R$ ${Math.floor(gross / 100)},${String(gross % 100).padStart(2, '0')}`;
    expect(table.stdout.trimEnd().split('\n').at(-1)).toBe(`3 transfers  gross ${money}  fees R$ 0,00  net ${money}`);
    // History of the seller shows each transfer leaving, linked to it.
    const out = await json(home, ['balances', 'history', '--operation', 'transfer', '--all']);
    expect(out.map((e) => e.transfer).sort()).toEqual(transfers.map((t) => t.id).sort());
  });

  it('CSV: a stable header whatever the rows, dotted columns, amounts as the API gives them; --fields picks', async ({ home }) => {
    // Only a PIX sale: the card columns are still there, empty.
    const pix = await json(home, ['transactions', 'create', '--payment-type', 'pix', '--amount', '12.30']);
    const csv = await run(home, ['transactions', 'list', '--all', '-o', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    const [header, row] = parseCsv(csv.stdout);
    expect(header).toEqual(expect.arrayContaining(['id', 'amount', 'fees', 'payment_method.card_brand', 'installment_plan.number_installments', 'created_at']));
    expect(header).not.toContain('history');
    const record = Object.fromEntries((header as string[]).map((h, i) => [h, (row as string[])[i]]));
    expect(record).toMatchObject({ id: pix.id, amount: '12.30', 'payment_method.card_brand': '', created_at: pix.created_at });

    await createCard(home, '10.00');
    const again = parseCsv((await run(home, ['transactions', 'list', '--all', '-o', 'csv'])).stdout);
    expect(again[0]).toEqual(header);

    const picked = await run(home, ['transactions', 'list', '--all', '-o', 'csv', '--fields', 'id,amount,payment_method.card_brand']);
    expect(parseCsv(picked.stdout)[0]).toEqual(['id', 'amount', 'payment_method.card_brand']);

    await json(home, ['sandbox', 'pay', pix.id]);
    await json(home, ['sandbox', 'advance', '--days', '2']);
    const transfersCsv = parseCsv((await run(home, ['transfers', 'list', '-o', 'csv'])).stdout);
    expect(transfersCsv[0]).toEqual(expect.arrayContaining(['id', 'amount', 'transfer_date', 'bank_account.bank_code', 'transactions']));
    const ndjson = await run(home, ['transfers', 'list', '--all', '-o', 'ndjson']);
    const lines = ndjson.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ resource: 'transfer', transactions: [pix.id] });
  });
});

describe('sandbox generate', () => {
  it('one sale over one day is said in the singular', async ({ home }) => {
    const report = await run(home, ['sandbox', 'generate', '--sales', '1', '--days', '1', '-o', 'json']);
    expect(expectJson(report).transactions).toBe(1);
    expect(report.stderr).toContain('Trading 1 sale over 1 day on the sandbox clock');
    expect(report.stderr).toMatch(/; 1 transaction, 0 transfers, 1 new buyer made\n/);
  });

  it('trades forward on the clock: the sales, their payouts, and a balance that still reconciles', async ({ home }) => {
    const before = await json(home, ['sandbox', 'clock']);
    const report = await run(home, ['sandbox', 'generate', '--sales', '60', '--days', '45', '-o', 'json']);
    const generated = expectJson(report);
    expect(report.stderr).toContain('Trading 60 sales over 45 days');
    expect(generated.transactions).toBe(60);
    expect(generated.offset_seconds - present(before.offset_seconds)).toBe(45 * 86_400);

    const transactions = await json(home, ['transactions', 'list', '--all', '--from', '2000-01-01']);
    expect(transactions).toHaveLength(60);
    expect(new Set(transactions.map((t) => t.payment_type))).toEqual(new Set(['credit', 'pix', 'boleto']));
    const transfers = await json(home, ['transfers', 'list', '--all', '--from', '2000-01-01']);
    expect(transfers).toHaveLength(generated.transfers);
    // Each receivable paid out is a transfer; those not paid yet are the future entries.
    const receivables = await json(home, ['receivables', 'list', '--seller', SANDBOX_SELLER_ID, '--all']);
    const future = await json(home, ['future-entries', 'list', '--all']);
    expect(receivables.filter((r) => r.status === 'paid').map((r) => r.transfer).sort()).toEqual(transfers.map((t) => t.id).sort());
    expect(receivables.filter((r) => r.status === 'pending').map((r) => r.id).sort()).toEqual(future.map((f) => f.receivable).sort());
    // Every collected sale has its receivables, one an instalment; a canceled one has none pending.
    const of = (t: { id: string }) => receivables.filter((r) => r.transaction === t.id);
    for (const t of transactions.filter((s) => s.status === 'succeeded')) expect(of(t)).toHaveLength(t.installment_plan?.number_installments ?? 1);
    for (const t of transactions.filter((s) => s.status === 'canceled' || s.status === 'charged_back')) expect(of(t).filter((r) => r.status === 'pending')).toEqual([]);

    const balance = await json(home, ['balances', 'get']);
    const history = await json(home, ['balances', 'history', '--all']);
    expect(history.reduce((total, e) => total + cents(e.amount), 0)).toBe(cents(balance.current_balance));
    expect(cents(present(balance.future_entries))).toBe(future.reduce((total, f) => total + cents(f.amount), 0));
  });

  it('refuses a bad size before sending anything', async ({ home }) => {
    expectUsage(await run(home, ['sandbox', 'generate', '--no-input']), '--sales');
    expectUsage(await run(home, ['sandbox', 'generate', '--sales', '0']), '--sales');
    expectUsage(await run(home, ['sandbox', 'generate', '--sales', '10', '--days', '5000']), '--days');
  });
});

describe('bad input is refused before anything is sent', () => {
  it('missing or conflicting flags, unknown filter values', async ({ home }) => {
    expectUsage(await run(home, ['balances', 'accounts', '--no-input']), '--buyer');
    expectUsage(await run(home, ['balances', 'history', '--account', 'a'.repeat(32), '--buyer', 'b'.repeat(32)]), 'either --account or --buyer');
    expectUsage(await run(home, ['balances', 'history', '--operation', 'payout']), '--operation', 'sale, refund, chargeback, transfer');
    expectUsage(await run(home, ['transfers', 'list', '--status', 'done']), '--status');
    expectUsage(await run(home, ['future-entries', 'list', '--from', '2026-02-30']), '--from');
    expectUsage(await run(home, ['transfers', 'get', 'not an id']), 'transfer id');
  });

  it('an unknown transfer or account is exit 5', async ({ home }) => {
    expectError(await run(home, ['transfers', 'get', 'f'.repeat(32)]), 5, 'transfer');
    expectError(await run(home, ['balances', 'get', '--account', 'f'.repeat(32)]), 5, 'account');
  });
});

// --- against a recording server: exact requests, streaming, interruption, progress ---------------

const MKT = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const SELLER = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const KEY = 'zpk_live_financekey0001';

function transfer(i: number) {
  return { id: `t${String(i).padStart(31, '0')}`, resource: 'transfer', status: 'succeeded', amount: '10.00', fees: '0.00', currency: 'BRL', transfer_date: '2026-11-20', bank_account: { bank_code: '001' }, transactions: [`x${i}`], created_at: '2026-11-20T00:00:00.000Z' };
}

/** A list of `total` transfers served 100 a page; `fault` may answer a page differently. */
function transferPages(total: number, fault?: (offset: number, req: RecordedRequest) => Reply | undefined) {
  return (req: RecordedRequest): Reply => {
    const url = new URL(req.url, 'http://x');
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const faulty = fault?.(offset, req);
    if (faulty) return faulty;
    const items = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => transfer(offset + i));
    return { status: 200, body: { resource: 'list', items, limit, offset, has_more: offset + items.length < total, total } };
  };
}

async function against(home: string, route: (req: RecordedRequest) => Reply, args: string[], options: { stderrTty?: boolean; onStdout?: (s: string) => void } = {}) {
  const server = await recordingServer(route);
  try {
    const result = await payctl(args, {
      home,
      env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: KEY, PAYCTL_MARKETPLACE_ID: MKT },
      ...options,
    });
    return { result, requests: server.requests };
  } finally {
    await server.close();
  }
}

describe('requests', () => {
  it('each verb calls its path under the marketplace, with the list query', async ({ home }) => {
    const empty = () => ({ status: 200, body: { resource: 'list', items: [], has_more: false, total: 0 } });
    const epoch = (iso: string) => Date.parse(iso) / 1000;
    const nov1 = epoch('2026-11-01T00:00:00Z');
    const dec1Start = epoch('2026-12-01T00:00:00Z');
    const dec1 = epoch('2026-12-01T00:00:00Z');
    const nov30 = epoch('2026-11-30T00:00:00Z');
    const cases: [string[], string][] = [
      [['balances', 'accounts', '--buyer', SELLER], `/v1/marketplaces/${MKT}/buyers/${SELLER}/balances?limit=100&offset=0`],
      [['balances', 'history', '--from', '2026-11-01', '--to', '2026-11-30', '--operation', 'sale,refund'], `/v1/marketplaces/${MKT}/balances/history?date_range%5Bgte%5D=${nov1}&date_range%5Blt%5D=${dec1Start}&operation=sale%2Crefund&limit=20&offset=0`],
      [['balances', 'history', '--buyer', SELLER, '--limit', '5'], `/v1/marketplaces/${MKT}/buyers/${SELLER}/balances/history?limit=5&offset=0`],
      [['transfers', 'list', '--status', 'succeeded', '--sort', 'asc'], `/v1/marketplaces/${MKT}/transfers?sort=time-ascending&status=succeeded&limit=20&offset=0`],
      [['transfers', 'transactions', SELLER], `/v1/marketplaces/${MKT}/transfers/${SELLER}/transactions?limit=100&offset=0`],
      [['future-entries', 'list', '--on-behalf-of', SELLER, '--from', '2026-12-01'], `/v1/marketplaces/${MKT}/sellers/${SELLER}/future_entries?date_range%5Bgte%5D=${dec1}&limit=20&offset=0`],
      // Calendar dates go as the days they are: a transfer's date, a due date, an expected date.
      [['transfers', 'list', '--from', '2026-11-01', '--to', '2026-11-30'], `/v1/marketplaces/${MKT}/transfers?transfer_date%5Bgte%5D=2026-11-01&transfer_date%5Blte%5D=2026-11-30&limit=20&offset=0`],
      [['transfers', 'list', '--seller', SELLER, '--to', '2026-11-30'], `/v1/marketplaces/${MKT}/sellers/${SELLER}/transfers?transfer_date%5Blte%5D=2026-11-30&limit=20&offset=0`],
      [['invoices', 'list', '--from', '2026-12-01', '--to', '2026-12-31'], `/v1/marketplaces/${MKT}/invoices?due_date%5Bgte%5D=2026-12-01&due_date%5Blte%5D=2026-12-31&limit=20&offset=0`],
      [['receivables', 'list', '--seller', SELLER, '--from', '2026-11-30', '--to', '2026-11-30'], `/v1/marketplaces/${MKT}/sellers/${SELLER}/receivables?date_range%5Bgte%5D=${nov30}&date_range%5Blt%5D=${dec1}&limit=20&offset=0`],
    ];
    for (const [args, url] of cases) {
      const { result, requests } = await against(home, empty, [...args, '-o', 'json']);
      expect(result.code, result.stderr).toBe(0);
      expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([`GET ${url}`]);
      expect(requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from(`${KEY}:`).toString('base64')}`);
    }
    const one = () => ({ status: 200, body: { resource: 'balance', current_balance: '1.00' } });
    for (const [args, path] of [
      [['balances', 'get', '--account', SELLER], `/v1/marketplaces/${MKT}/balances/${SELLER}`],
      [['balances', 'current', '--account', SELLER], `/v1/marketplaces/${MKT}/balances/${SELLER}/current`],
    ] as const) {
      const { requests } = await against(home, one, [...args, '-o', 'json']);
      expect(requests.map((r) => r.url)).toEqual([path]);
    }
  });
});

describe('transfers with a fee of their own', () => {
  it('the amount is what reached the bank: the totals and groups add the fee back for the gross, never take it off twice', async ({ home }) => {
    const paid = { ...transfer(1), amount: '98.00', fees: '2.00', on_behalf_of: SELLER };
    const list = () => ({ status: 200, body: { resource: 'list', items: [paid, { ...transfer(2), on_behalf_of: SELLER }], has_more: false, total: 2 } });
    const table = await against(home, list, ['transfers', 'list', '-o', 'table', '--no-color']);
    expect(table.result.code, table.result.stderr).toBe(0);
    expect(table.result.stdout.trimEnd().split('\n').at(-1)).toBe('2 transfers  gross R$ 110,00  fees R$ 2,00  net R$ 108,00');
    const groups = await against(home, list, ['transfers', 'list', '--group-by', 'seller', '-o', 'json']);
    expect(JSON.parse(groups.result.stdout)).toEqual([{ group: SELLER, count: 2, gross: '110.00', fees: '2.00', refunds: '0.00', net: '108.00' }]);
  });
});

describe('exports that stream', () => {
  it('--all -o csv writes the first rows before the last page is requested', async ({ home }) => {
    // The next page is requested as soon as one arrives, so the fourth is asked for while the
    // third is still on its way to stdout: at least the first page is out by then.
    let written = '';
    let seenAtLastPage = -1;
    const { result } = await against(home, 
      transferPages(350, (offset) => {
        if (offset === 300) seenAtLastPage = written.split('\n').length - 1;
        return undefined;
      }),
      ['transfers', 'list', '--all', '-o', 'csv'],
      { onStdout: (s) => (written += s) },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(seenAtLastPage).toBeGreaterThanOrEqual(101);
    expect(parseCsv(result.stdout)).toHaveLength(351);
    expect(result.stderr).toBe('');
  });

  it('a server error mid-way exits 8; what was written stays whole (CSV, NDJSON) and JSON does not pass for complete', async ({ home }) => {
    const failing = (offset: number) => (offset >= 200 ? { status: 503, body: { error: { status: 'Service Unavailable', status_code: 503, category: 'server_api_error', message: 'down' } } } : undefined);
    const csv = await against(home, transferPages(500, failing), ['transfers', 'list', '--all', '-o', 'csv', '--timeout', '5']);
    expect(csv.result.code).toBe(8);
    expect(csv.result.stdout.endsWith('\n')).toBe(true);
    const rows = parseCsv(csv.result.stdout);
    expect(rows).toHaveLength(201);
    expect(rows.slice(1).every((r) => r.length === rows[0]!.length)).toBe(true);
    expect(csv.result.stderr.trimEnd().split('\n').at(-1)).toMatch(/^error: .*HTTP 503/);

    const ndjson = await against(home, transferPages(500, failing), ['transfers', 'list', '--all', '-o', 'ndjson']);
    expect(ndjson.result.code).toBe(8);
    const lines = ndjson.result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(200);
    expect(lines.map((l) => JSON.parse(l).id)).toEqual(Array.from({ length: 200 }, (_, i) => transfer(i).id));

    const asJson = await against(home, transferPages(500, failing), ['transfers', 'list', '--all', '-o', 'json']);
    expect(asJson.result.code).toBe(8);
    expect(() => JSON.parse(asJson.result.stdout)).toThrow();
  });

  it('progress on a terminal stderr for a long --all (items, pages, rate), and none when stderr is not one', async ({ home }) => {
    const slow = transferPages(600, () => undefined);
    const paced = (req: RecordedRequest): Reply => ({ ...(slow(req) as { status: number; body: unknown }), delayMs: 120 });
    const watched = await against(home, paced, ['transfers', 'list', '--all', '-o', 'ndjson'], { stderrTty: true });
    expect(watched.result.code, watched.result.stderr).toBe(0);
    expect(watched.result.stderr).toMatch(/\/600 transfers \| \d+ pages \| [\d,]+\/s/);
    expect(watched.result.stdout.trimEnd().split('\n')).toHaveLength(600);

    const piped = await against(home, paced, ['transfers', 'list', '--all', '-o', 'ndjson']);
    expect(piped.result.code).toBe(0);
    expect(piped.result.stderr).toBe('');
    const quiet = await against(home, paced, ['transfers', 'list', '--all', '-o', 'ndjson', '--quiet'], { stderrTty: true });
    expect(quiet.result.stderr).toBe('');
  });
});

describe('a card sale', () => {
  it('credits its net at once: R$ 10,00 less the 2.99% fee', async ({ home }) => {
    await json(home, ['transactions', 'create', '--amount', '10', ...cardFlags()]);
    expect(cents((await json(home, ['balances', 'get'])).current_balance)).toBe(1000 - 30);
  });
});
