// Single objects for a person: titled views (src/output/object-view.ts) and the pager around them.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { BUYER_VIEW } from '../../src/commands/buyers/view.js';
import { INVOICE_VIEW } from '../../src/commands/invoices/view.js';
import { invoiceRow } from '../../src/commands/invoices/shared.js';
import { SUBSCRIPTION_VIEW } from '../../src/commands/subscriptions/view.js';
import { subscriptionRow } from '../../src/commands/subscriptions/shared.js';
import { TRANSACTION_VIEW } from '../../src/commands/transactions/view.js';
import { drawObjectView } from '../../src/output/object-view.js';
import { pagerCommand, showInPager } from '../../src/output/pager.js';

const tx = {
  id: 'tx_1',
  status: 'succeeded',
  amount: '90.00',
  original_amount: '100.00',
  currency: 'BRL',
  payment_type: 'credit',
  description: 'Pedido 7 — a description long enough to need more than the room beside its label at 40 columns',
  reference_id: null,
  payment_method: { card_brand: 'Mastercard', last4_digits: '4444', expiration_month: 3, expiration_year: 2031, holder_name: 'ANA' },
  fees: '2.10',
  fee_details: { description: 'Card fee' },
  history: [
    { created_at: '2026-03-01T12:00:00Z', operation_type: 'authorization', status: 'succeeded', amount: '100.00', response_message: 'Approved' },
    { created_at: '2026-03-02T12:00:00Z', operation_type: 'void', status: 'succeeded', amount: '10.00', response_message: 'Partial void applied.' },
    { created_at: '2026-03-02T13:00:00Z', operation_type: 'void', status: 'failed', amount: '5.00', response_message: 'Refused' },
  ],
  metadata: { order: 'A-7', 'weird\x1b[31m': 'x\u202ey' },
  created_at: '2026-03-01T12:00:00Z',
};

describe('object views', () => {
  it('a transaction: title, summary without empty fields, sections, the history as a table', async () => {
    const text = await drawObjectView(TRANSACTION_VIEW, tx, { color: false, columns: undefined });
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('Transaction tx_1  succeeded');
    expect(lines).toContain('Amount       R$ 90,00');
    expect(lines).toContain('Original     R$ 100,00');
    // Only succeeded refunds count.
    expect(lines).toContain('Refunded     R$ 10,00');
    expect(text).not.toContain('Reference');
    expect(lines).toContain('  Card    Mastercard ••••4444  expires 03/2031');
    expect(lines).toContain('  DATE              OPERATION      STATUS        AMOUNT  RESPONSE');
    expect(lines).toContain('  2026-03-02 12:00  void           succeeded   R$ 10,00  Partial void applied.');
    // Metadata keys and values are sanitised like any API text.
    expect(text).toMatch(/^ {2}order +A-7$/m);
    expect(text).not.toMatch(/\x1b|\u202e/);
  });

  it('fits a terminal: long values wrap beside their label, the history table fits the indented room', async () => {
    const text = await drawObjectView(TRANSACTION_VIEW, tx, { color: false, columns: 60 });
    for (const line of text.trimEnd().split('\n')) expect(line.length, line).toBeLessThanOrEqual(60);
    expect(text.replace(/\s+/g, ' ')).toContain('Pedido 7 — a description long enough');
    expect(text).toContain('R$ 100,00');
  });

  it('short: the title and summary only', async () => {
    const text = await drawObjectView(TRANSACTION_VIEW, tx, { color: false, columns: 80, short: true });
    expect(text).toContain('Refunded     R$ 10,00');
    for (const title of ['Payment method', 'Fees', 'History', 'Metadata']) expect(text).not.toContain(title);
  });

  it('colours the status in the title only when colour is on', async () => {
    expect((await drawObjectView(TRANSACTION_VIEW, tx, { color: true, columns: 80, short: true }))).toContain('\x1b[32msucceeded');
    expect((await drawObjectView(TRANSACTION_VIEW, tx, { color: false, columns: 80, short: true }))).not.toContain('\x1b[');
  });

  it('a subscription and an invoice: cents as R$, whole ids, dates', async () => {
    const subscription = subscriptionRow({ uuid: 'c76dd0a1b2c3d4e5f60718293a4b5c6d', status: 'active', amount: 2490, currency: 'BRL', plan: 'plan_1', customer: 'buyer_1', due_date: '2026-12-05', metadata: {} });
    const s = await drawObjectView(SUBSCRIPTION_VIEW, subscription, { color: false, columns: 80 });
    expect(s.split('\n')[0]).toBe('Subscription c76dd0a1b2c3d4e5f60718293a4b5c6d  active');
    expect(s).toContain('Amount    R$ 24,90');
    expect(s).toContain('Next due  2026-12-05');
    expect(s).not.toContain('Metadata');
    const invoice = invoiceRow({ id: 'inv_1', status: 'paid', amount: 1000, retries: 1, max_retries: 3, paid_at: '2026-12-05T10:00:00Z', transaction: 'tx_9' });
    const i = await drawObjectView(INVOICE_VIEW, invoice, { color: false, columns: 80 });
    expect(i).toContain('Amount       R$ 10,00');
    expect(i).toContain('Retries      1 of 3');
    expect(i).toContain('Paid         2026-12-05 10:00');
    expect(i).toContain('Transaction  tx_9');
  });

  it('a record referred to by id: by its name when it was read, the id dim beside it; else the id', async () => {
    const subscription = subscriptionRow({ uuid: 's_1', status: 'active', amount: 2490, currency: 'BRL', plan: 'plan_1', customer: 'buyer_1', card: 'card_1' });
    const names = new Map([['buyer buyer_1', 'Maria Silva'], ['card card_1', 'MasterCard ••••4444']]);
    const plain = await drawObjectView(SUBSCRIPTION_VIEW, subscription, { color: false, columns: 80, names });
    expect(plain).toContain('Customer  Maria Silva  buyer_1\n');
    expect(plain).toContain('Card      MasterCard ••••4444  card_1\n');
    expect(plain).toContain('Plan      plan_1\n');
    const coloured = await drawObjectView(SUBSCRIPTION_VIEW, subscription, { color: true, columns: 80, names });
    expect(coloured).toContain('Maria Silva  \x1b[2mbuyer_1\x1b[22m');
    // A name and its id that do not fit a line: the id goes under the name, whole.
    const id = 'a'.repeat(32);
    const long = await drawObjectView(SUBSCRIPTION_VIEW, { ...subscription, on_behalf_of: id }, { color: false, columns: 80, names: new Map([[`seller ${id}`, 'Comércio de Artigos Esportivos e Recreativos do Brasil Ltda']]) });
    expect(long).toContain(`Seller    Comércio de Artigos Esportivos e Recreativos do Brasil Ltda\n          ${id}\n`);
  });

  it('a buyer: name, the CPF masked, the address on one line', async () => {
    const buyer = { id: 'b_1', status: 'active', first_name: 'Maria', last_name: 'Silva', taxpayer_id: '52998224725', email: 'm@example.com', address: { line1: 'Av. Paulista, 1000', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', postal_code: '01310100', country_code: 'BR' }, delinquent: false };
    const text = await drawObjectView(BUYER_VIEW, buyer, { color: false, columns: 100 });
    expect(text).toContain('Name      Maria Silva');
    expect(text).toContain('CPF/CNPJ  ***.***.*47-25');
    expect(text).not.toContain('52998224725');
    expect(text).toContain('Address   Av. Paulista, 1000, Bela Vista, São Paulo - SP, 01310100, BR');
    expect(text).not.toContain('Delinquent');
  });
});

describe('pager', () => {
  const dir = mkdtempSync(join(tmpdir(), 'payctl-pager-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const tall = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n') + '\n';
  const terminal = (rows: number) => Object.assign(new PassThrough(), { isTTY: true, rows, columns: 80 });

  it('chooses PAYCTL_PAGER, then PAGER, then less -FRX; cat or empty means none', () => {
    expect(pagerCommand({})).toBe('less -FRX');
    expect(pagerCommand({ PAGER: 'more' })).toBe('more');
    expect(pagerCommand({ PAGER: 'more', PAYCTL_PAGER: 'most' })).toBe('most');
    expect(pagerCommand({ PAGER: 'cat' })).toBeUndefined();
    expect(pagerCommand({ PAGER: '' })).toBeUndefined();
  });

  it('pages text taller than the terminal, on a terminal only, unless told not to', async () => {
    const file = join(dir, 'paged');
    const env = { PATH: process.env.PATH, PAGER: `cat > ${file}` };
    expect(await showInPager(tall, { stdout: terminal(24), stdoutIsTTY: true, env }, true)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(tall);
    // Fits the screen; piped; --no-pager: the caller prints it.
    expect(await showInPager(tall, { stdout: terminal(60), stdoutIsTTY: true, env }, true)).toBe(false);
    expect(await showInPager(tall, { stdout: new PassThrough(), stdoutIsTTY: false, env }, true)).toBe(false);
    expect(await showInPager(tall, { stdout: terminal(24), stdoutIsTTY: true, env }, false)).toBe(false);
  });

  it('a pager that cannot start leaves the printing to the caller', async () => {
    const env = { PATH: process.env.PATH, PAGER: 'no-such-pager-here' };
    expect(await showInPager(tall, { stdout: terminal(24), stdoutIsTTY: true, env }, true)).toBe(false);
  });
});
