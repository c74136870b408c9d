import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { SANDBOX_BUYER_ID, SANDBOX_CARD_ID } from '../../src/provider/sandbox-account.js';
import { cardJson, DECLINED, expectError, expectJson, paidWith, present, run } from './helpers.js';

// Plans, subscriptions and invoices living through billing cycles on the sandbox clock, driven
// through the CLI as support and finance would.
const json = async <const A extends readonly string[]>(home: string, args: A, stdin?: string) => expectJson(await run(home, [...args, '-o', 'json'], stdin === undefined ? {} : { stdin }));

/** The sandbox's own "today" (its clock may have been moved). */
async function sandboxDay(home: string, offsetDays = 0): Promise<string> {
  const clock = await json(home, ['sandbox', 'clock']);
  return new Date(Date.parse(clock.now) + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

async function monthlyPlan(home: string, amount = '29.90') {
  return json(home, ['plans', 'create', '--name', 'Mensal', '--amount', amount, '--frequency', 'monthly']);
}

async function subscribe(home: string, plan: { uuid: string }, extra: string[] = []) {
  return json(home, ['subscriptions', 'create', '--plan', plan.uuid, '--customer', SANDBOX_BUYER_ID, '--due-date', await sandboxDay(home, 1), ...extra]);
}

describe('a year of monthly billing', () => {
  it('gives exactly 12 paid invoices per active subscription and none while suspended', async ({ home }) => {
    const plan = await monthlyPlan(home);
    expect(plan).toMatchObject({ amount: 2990, frequency: 'monthly', interval: 1, status: 'active', payment_methods: ['credit'] });
    const active = await subscribe(home, plan);
    expect(active).toMatchObject({ status: 'active', amount: 2990, card: SANDBOX_CARD_ID, customer: SANDBOX_BUYER_ID, payment_method: 'credit' });
    expect(typeof active.amount).toBe('number');
    const paused = await subscribe(home, plan);
    expect(await json(home, ['subscriptions', 'suspend', paused.uuid, '--yes'])).toMatchObject({ status: 'suspended', suspended_at: expect.any(String) });

    const advanced = await run(home, ['sandbox', 'advance', '--days', '365', '-o', 'json']);
    expect(advanced.code, advanced.stderr).toBe(0);
    expect(advanced.stderr).toContain('12 billings');

    const invoices = await json(home, ['invoices', 'list', '--subscription', active.uuid, '--all']);
    expect(invoices).toHaveLength(12);
    expect(invoices.every((i) => i.status === 'paid' && i.amount === 2990)).toBe(true);
    expect(new Set(invoices.map((i) => i.due_date)).size).toBe(12);
    expect(await json(home, ['invoices', 'list', '--subscription', paused.uuid, '--all'])).toEqual([]);

    // Each paid invoice is a real card transaction.
    const charged = await json(home, ['transactions', 'list', '--all', '--payment-type', 'credit']);
    expect(charged.filter((t) => t.status === 'succeeded' && t.amount === '29.90')).toHaveLength(12);
  });

  it('suspended for three months: those months are never billed, even after reactivation', async ({ home }) => {
    const plan = await monthlyPlan(home);
    const sub = await subscribe(home, plan);
    await json(home, ['sandbox', 'advance', '--days', '45']); // 2 billings
    await json(home, ['subscriptions', 'suspend', sub.uuid, '--yes']);
    await json(home, ['sandbox', 'advance', '--days', '92']);
    expect(await json(home, ['invoices', 'list', '--subscription', sub.uuid, '--all'])).toHaveLength(2);
    const back = await json(home, ['subscriptions', 'reactivate', sub.uuid]);
    expect(back.status).toBe('active');
    expect(back.due_date >= (await sandboxDay(home))).toBe(true);
    await json(home, ['sandbox', 'advance', '--days', '31']);
    expect(await json(home, ['invoices', 'list', '--subscription', sub.uuid, '--all'])).toHaveLength(3);
  });

  it('a declined card gives failed invoices', async ({ home }) => {
    const token = await json(home, ['cards', 'tokenize', '--card-file', '-'], cardJson(DECLINED));
    const card = await json(home, ['cards', 'associate', '--token', token.id, '--customer', SANDBOX_BUYER_ID]);
    const plan = await monthlyPlan(home);
    const sub = await subscribe(home, plan, ['--card', card.id]);
    await json(home, ['sandbox', 'advance', '--days', '40']);
    const invoices = await json(home, ['invoices', 'list', '--subscription', sub.uuid]);
    expect(invoices.length).toBeGreaterThan(0);
    expect(invoices.every((i) => i.status === 'failed')).toBe(true);
    expect(await json(home, ['invoices', 'list', '--status', 'failed'])).toHaveLength(invoices.length);
  });

  it('an expiration date ends billing', async ({ home }) => {
    const plan = await monthlyPlan(home);
    const sub = await subscribe(home, plan, ['--expiration-date', await sandboxDay(home, 70)]);
    await json(home, ['sandbox', 'advance', '--days', '200']);
    expect(await json(home, ['invoices', 'list', '--subscription', sub.uuid, '--all'])).toHaveLength(3);
    expect((await json(home, ['subscriptions', 'get', sub.uuid])).status).toBe('expired');
  });
});

describe('a boleto subscription', () => {
  const billedBoletos = async (home: string, sub: { uuid: string }) =>
    (await json(home, ['transactions', 'list', '--all', '--payment-type', 'boleto'])).filter((t) => t.description === `Subscription ${sub.uuid}`);

  it('each cycle issues a pending boleto invoice; sandbox pay pays it; advancing again charges nothing twice', async ({ home }) => {
    const plan = await json(home, ['plans', 'create', '--name', 'Mensal boleto', '--amount', '29.90', '--frequency', 'monthly', '--payment-method', 'boleto']);
    expect(plan.payment_methods).toEqual(['boleto']);
    // The plan takes no card subscriptions: refused before sending.
    expectError(await run(home, ['subscriptions', 'create', '--plan', plan.uuid, '--customer', SANDBOX_BUYER_ID, '--due-date', await sandboxDay(home, 1)]), 2, '--payment-method', 'its payment methods are boleto');
    expectError(await run(home, ['subscriptions', 'create', '--plan', plan.uuid, '--customer', SANDBOX_BUYER_ID, '--payment-method', 'boleto', '--card', SANDBOX_CARD_ID]), 2, '--card cannot be used with --payment-method boleto');

    const sub = await subscribe(home, plan, ['--payment-method', 'boleto']);
    expect(sub).toMatchObject({ payment_method: 'boleto', card: null, description: 'Mensal boleto', due_since_date: sub.due_date, expiration_date: null, suspended_at: null, amount: 2990 });
    const view = await run(home, ['subscriptions', 'get', sub.uuid, '--no-color'], { tty: true });
    expect(view.stdout).toMatch(/Paid by\s+boleto/);

    const advanced = await run(home, ['sandbox', 'advance', '--days', '1', '-o', 'json']);
    expect(advanced.code, advanced.stderr).toBe(0);
    expect(advanced.stderr).toContain('1 billing');
    const [first, ...more] = await json(home, ['invoices', 'list', '--subscription', sub.uuid]);
    expect(more).toEqual([]);
    const invoice = present(first, 'the invoice');
    const issued = present(invoice.transaction, 'its boleto');
    expect(invoice).toMatchObject({ status: 'pending', payment_method: 'boleto', due_date: sub.due_date, amount: 2990, paid_at: null });
    const boleto = await json(home, ['transactions', 'get', issued]);
    expect(boleto).toMatchObject({ payment_type: 'boleto', status: 'pending', amount: '29.90', customer: SANDBOX_BUYER_ID, metadata: { invoice: invoice.id, subscription: sub.uuid } });
    expect(paidWith(boleto, 'boleto').expiration_date).toBe(sub.due_date);
    // The boleto pays it, not a card.
    expectError(await run(home, ['invoices', 'approve', invoice.id, '--yes']), 6, 'invoice_paid_by_boleto');

    const payment = await run(home, ['sandbox', 'pay', issued, '-o', 'json']);
    expect(expectJson(payment)).toMatchObject({ status: 'succeeded' });
    expect(payment.stderr).toContain(`Invoice ${invoice.id}: paid\n`);
    const paid = await json(home, ['invoices', 'get', invoice.id]);
    expect(paid).toMatchObject({ status: 'paid', paid_at: expect.any(String), transaction: invoice.transaction });
    expect(await json(home, ['invoices', 'list', '--status', 'paid'])).toHaveLength(1);

    // Advancing again within the cycle bills nothing more and charges the buyer nothing twice.
    await json(home, ['sandbox', 'advance', '--days', '1']);
    expect(await json(home, ['invoices', 'list', '--subscription', sub.uuid])).toEqual([paid]);
    expect(await billedBoletos(home, sub)).toHaveLength(1);
    expect((await json(home, ['transactions', 'list', '--all', '--payment-type', 'credit'])).filter((t) => t.description === `Subscription ${sub.uuid}`)).toEqual([]);

    // The next cycle issues the next boleto.
    await json(home, ['sandbox', 'advance', '--days', '31']);
    const invoices = await json(home, ['invoices', 'list', '--subscription', sub.uuid, '--all']);
    expect(invoices).toHaveLength(2);
    const second = present(invoices.find((i) => i.id !== invoice.id), 'the second invoice');
    expect(['pending', 'over-due']).toContain(second.status);
    expect(second.transaction).not.toBe(invoice.transaction);
    expect((await billedBoletos(home, sub)).map((t) => t.status).sort()).toEqual(['pending', 'succeeded']);
    expect((await json(home, ['subscriptions', 'get', sub.uuid])).due_since_date).toBe(second.due_date);
    await json(home, ['sandbox', 'pay', present(second.transaction)]);
    expect((await json(home, ['invoices', 'get', second.id])).status).toBe('paid');
  });

  it('subscriptions update --payment-method moves a card subscription to boleto and back', async ({ home }) => {
    const plan = await json(home, ['plans', 'create', '--name', 'Ambos', '--amount', '10', '--frequency', 'monthly', '--payment-method', 'credit', '--payment-method', 'boleto']);
    const sub = await subscribe(home, plan);
    expect(sub).toMatchObject({ payment_method: 'credit', card: SANDBOX_CARD_ID });
    expect(await json(home, ['subscriptions', 'update', sub.uuid, '--payment-method', 'boleto'])).toMatchObject({ payment_method: 'boleto', card: null });
    await json(home, ['sandbox', 'advance', '--days', '1']);
    const invoice = present((await json(home, ['invoices', 'list', '--subscription', sub.uuid]))[0], 'the invoice');
    expect(invoice).toMatchObject({ payment_method: 'boleto', status: 'pending' });
    // Removing the invoice withdraws its boleto.
    expect(await json(home, ['invoices', 'remove', invoice.id, '--yes'])).toMatchObject({ status: 'canceled' });
    expect((await json(home, ['transactions', 'get', present(invoice.transaction)])).status).toBe('canceled');
    // Back to credit: the buyer's default card.
    expect(await json(home, ['subscriptions', 'update', sub.uuid, '--payment-method', 'credit'])).toMatchObject({ payment_method: 'credit', card: SANDBOX_CARD_ID });
    const creditOnly = await monthlyPlan(home);
    expectError(await run(home, ['subscriptions', 'update', sub.uuid, '--plan', creditOnly.uuid, '--payment-method', 'boleto']), 2, `plan ${creditOnly.uuid} does not accept boleto`);
  });
});

describe('subscriptions, invoices and plans from a support desk', () => {
  it('suspending twice, or a canceled subscription, is a clear error; remove asks', async ({ home }) => {
    const sub = await subscribe(home, await monthlyPlan(home));
    await json(home, ['subscriptions', 'suspend', sub.uuid, '--yes']);
    expectError(await run(home, ['subscriptions', 'suspend', sub.uuid, '--yes']), 6, 'invalid_subscription_status', 'HTTP 400');
    expectError(await run(home, ['subscriptions', 'remove', sub.uuid]), 2, '--yes required');
    expect(await json(home, ['subscriptions', 'remove', sub.uuid, '--yes'])).toMatchObject({ status: 'canceled' });
    expectError(await run(home, ['subscriptions', 'suspend', sub.uuid, '--yes']), 6, 'invalid_subscription_status');
  });

  it('a table row: customer, plan, amount, status, next due date; the buyer and the plan by name on a terminal, by id piped', async ({ home }) => {
    const plan = await monthlyPlan(home, '24.90');
    const sub = await subscribe(home, plan);
    const table = await run(home, ['subscriptions', 'list', '--no-color'], { tty: true });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^ID\s+CUSTOMER\s+PLAN\s+AMOUNT\s+STATUS\s+NEXT DUE/);
    expect(table.stdout).toMatch(new RegExp(`${sub.uuid}\\s+Maria Silva\\s+Mensal\\s+R\\$ 24,90\\s+active\\s+${sub.due_date}`));
    const piped = await run(home, ['subscriptions', 'list', '-o', 'table', '--no-color']);
    expect(piped.stdout).toMatch(new RegExp(`${sub.uuid}\\s+${SANDBOX_BUYER_ID}\\s+${plan.uuid}\\s+R\\$ 24,90\\s+active\\s+${sub.due_date}`));
  });

  it('an unknown plan, and a canceled plan, refuse new subscriptions', async ({ home }) => {
    expectError(
      await run(home, ['subscriptions', 'create', '--plan', 'f'.repeat(32), '--customer', SANDBOX_BUYER_ID, '--due-date', await sandboxDay(home, 1)]),
      5,
    );
    const plan = await monthlyPlan(home);
    expect(await json(home, ['plans', 'remove', plan.uuid, '--yes'])).toMatchObject({ status: 'canceled' });
    expectError(await run(home, ['subscriptions', 'create', '--plan', plan.uuid, '--customer', SANDBOX_BUYER_ID, '--amount', '10', '--due-date', await sandboxDay(home, 1)]), 6, 'plan_canceled');
  });

  it('a one-off invoice: over-due when its date passes, approved (paid), refunded; invoice table', async ({ home }) => {
    const invoice = await json(home, ['invoices', 'create', '--customer', SANDBOX_BUYER_ID, '--amount', '150', '--due-date', await sandboxDay(home, 2), '--description', 'Adesão']);
    expect(invoice).toMatchObject({ status: 'pending', amount: 15000, customer: SANDBOX_BUYER_ID });
    expectError(await run(home, ['invoices', 'refund', invoice.id, '--yes']), 2, 'only a paid invoice');
    await json(home, ['sandbox', 'advance', '--days', '5']);
    expect((await json(home, ['invoices', 'get', invoice.id])).status).toBe('over-due');
    expect(await json(home, ['invoices', 'approve', invoice.id, '--yes'])).toMatchObject({ status: 'paid', paid_at: expect.any(String) });

    const table = await run(home, ['invoices', 'list', '--no-color'], { tty: true });
    expect(table.stdout).toMatch(/^ID\s+DUE\s+AMOUNT\s+STATUS\s+PAID/);
    expect(table.stdout).toMatch(new RegExp(`${invoice.id}\\s+${invoice.due_date}\\s+R\\$ 150,00\\s+paid`));

    expectError(await run(home, ['invoices', 'refund', invoice.id]), 2, '--yes required');
    expect(await json(home, ['invoices', 'refund', invoice.id, '--yes'])).toMatchObject({ status: 'canceled', voided_at: expect.any(String) });
  });

  it('a pending invoice can be removed (canceled); a paid one cannot', async ({ home }) => {
    const invoice = await json(home, ['invoices', 'create', '--customer', SANDBOX_BUYER_ID, '--amount', '10', '--due-date', await sandboxDay(home, 3)]);
    expect(await json(home, ['invoices', 'remove', invoice.id, '--yes'])).toMatchObject({ status: 'canceled' });
  });

  it('without --due-date, subscriptions and invoices fall due on the sandbox clock\'s day, however far it was moved', async ({ home }) => {
    const plan = await monthlyPlan(home);
    await json(home, ['sandbox', 'advance', '--days', '40']);
    const today = await sandboxDay(home, 0);
    const sub = await json(home, ['subscriptions', 'create', '--plan', plan.uuid, '--customer', SANDBOX_BUYER_ID]);
    expect(sub.due_date).toBe(today);
    const invoice = await json(home, ['invoices', 'create', '--customer', SANDBOX_BUYER_ID, '--amount', '10']);
    expect(invoice.due_date).toBe(today);
    // A dry run asks the sandbox nothing: it says where the date will come from.
    const dry = await json(home, ['subscriptions', 'create', '--plan', plan.uuid, '--customer', SANDBOX_BUYER_ID, '--expiration-date', await sandboxDay(home, 30), '--dry-run']);
    expect(dry.body).toHaveProperty('due_date', '(today on the sandbox clock)');
    expect((await json(home, ['invoices', 'create', '--customer', SANDBOX_BUYER_ID, '--amount', '10', '--dry-run'])).body).toHaveProperty('due_date', '(today on the sandbox clock)');
  });

  it('one billing is said in the singular', async ({ home }) => {
    await subscribe(home, await monthlyPlan(home));
    const advanced = await run(home, ['sandbox', 'advance', '--days', '2', '-o', 'json']);
    expect(advanced.code, advanced.stderr).toBe(0);
    expect(advanced.stderr).toMatch(/; 1 billing, 0 subscriptions expired, 0 invoices over-due\n$/);
  });

  it('the sandbox clock moves only forward, when told', async ({ home }) => {
    const before = await json(home, ['sandbox', 'clock']);
    const moved = await json(home, ['sandbox', 'advance', '--days', '10']);
    expect(Date.parse(moved.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(10 * 86_400_000);
    expect((await json(home, ['sandbox', 'clock'])).offset_seconds).toBeGreaterThanOrEqual(10 * 86_400);
  });
});
