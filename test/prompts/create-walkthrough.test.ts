import { readFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { converse, KEY } from '../helpers/interactive.js';
import { payctl, payctlJson } from '../helpers/run.js';

/**
 * The walk-through for a new card, question by question; `readme` is how the support guide's account of
 * the walk-through names the step, so that the two are told in the same order.
 */
const CARD_WALKTHROUGH = [
  { prompt: /Payment type/, keys: KEY.enter, readme: 'payment type' }, // Credit card is first
  { prompt: /Amount/, keys: `12,34${KEY.enter}`, readme: 'amount' },
  { prompt: /Pay with/, keys: KEY.enter, readme: 'how to pay' }, // New card
  { prompt: /Installments/, keys: `${KEY.down}${KEY.down}${KEY.enter}`, readme: 'installments' }, // 3x
  { prompt: /Card number/, keys: `4111111111111111${KEY.enter}`, readme: 'the card itself' },
  { prompt: /Cardholder name/, keys: `Maria Silva${KEY.enter}` },
  { prompt: /Expiry month/, keys: `12${KEY.enter}` },
  { prompt: /Expiry year/, keys: `2031${KEY.enter}` },
  { prompt: /CVV/, keys: `123${KEY.enter}` },
  { prompt: /Order number \(reference_id; empty: payctl makes one up\)/, keys: `pedido-7788${KEY.enter}`, readme: 'order number' },
  { prompt: /Description/, keys: `Balcão${KEY.enter}`, readme: 'description' },
  { prompt: /Create this card transaction of R\$ 12,34\? \[y\/N\]/, keys: `y${KEY.enter}`, readme: 'asks before sending' },
];

describe('transactions create walks the user through on a terminal', () => {
  it('the support guide tells its questions in the order they are asked', () => {
    const readme = readFileSync(new URL('../../docs/support.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    const start = readme.indexOf('with no flags walks you through it:');
    expect(start).toBeGreaterThan(-1);
    const account = readme.slice(start, readme.indexOf('. A declined card', start));
    const positions = CARD_WALKTHROUGH.flatMap((step) => (step.readme ? [account.indexOf(step.readme)] : []));
    expect(positions.every((at) => at >= 0), account).toBe(true);
    expect(positions, account).toEqual([...positions].sort((a, b) => a - b));
  });

  it('card payment: select type, amount, how to pay, installments, hidden card number and CVV, order number, description, review, confirm', async ({ home }) => {
    const result = await converse(['transactions', 'create', '-o', 'json'], home, CARD_WALKTHROUGH);
    expect(result.code, result.stderr).toBe(0);
    const tx = JSON.parse(result.stdout);
    expect(tx).toMatchObject({ status: 'succeeded', amount: '12.34', description: 'Balcão', payment_type: 'credit', reference_id: 'pedido-7788' });
    expect(tx.installment_plan).toMatchObject({ number_installments: 3 });
    // The review says the charge in words, the card by brand and last 4; the hidden inputs never echo.
    expect(result.stderr).toContain(['  Amount        R$ 12,34 by card', '  Installments  3x R$ 4,11 (the first R$ 4,12)', '  Card          Visa ••••1111, Maria Silva'].join('\n'));
    expect(result.stderr).toContain('  Reference     pedido-7788\n  Description   Balcão');
    expect(result.stderr).not.toContain('"card_number"');
    expect(result.stderr).not.toContain('4111111111111111');
    expect(result.stderr).not.toMatch(/CVV.*123/);
    // The transaction's view says the installments too; the order number finds it.
    const view = await payctl(['transactions', 'get', 'pedido-7788', '--no-pager', '--no-color'], { home, tty: true, columns: 80 });
    expect(view.stdout).toMatch(/^Installments {2}3x R\$ 4,11 \(the first R\$ 4,12\)$/m);
  }, 20_000);

  it('an order number already on another sale is refused before anything is charged; left empty, payctl makes one up', async ({ home }) => {
    await payctlJson(['transactions', 'create', '--payment-type', 'pix', '--amount', '9', '--reference-id', 'pedido-1'], { home });
    const taken = await converse(['transactions', 'create', '--payment-type', 'pix'], home, [
      { prompt: /Amount/, keys: `5${KEY.enter}` },
      { prompt: /Order number/, keys: `pedido-1${KEY.enter}` },
      { prompt: /Description/, keys: KEY.enter },
    ]);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain('--reference-id: pedido-1 already names transaction');
    const made = await converse(['transactions', 'create', '--payment-type', 'pix', '-o', 'json', '--yes'], home, [
      { prompt: /Amount/, keys: `5${KEY.enter}` },
      { prompt: /Order number/, keys: KEY.enter },
      { prompt: /Description/, keys: KEY.enter },
    ]);
    expect(made.code, made.stderr).toBe(0);
    expect(JSON.parse(made.stdout).reference_id).toMatch(/^payctl-[0-9a-f-]{36}$/);
    expect(await payctlJson(['transactions', 'list', '--reference-id', 'pedido-1'], { home })).toHaveLength(1);
  });

  it('declining the final confirmation sends nothing and exits 3', async ({ home }) => {
    const result = await converse(['transactions', 'create'], home, [
      { prompt: /Payment type/, keys: `${KEY.down}${KEY.down}${KEY.down}${KEY.enter}` }, // PIX
      { prompt: /Amount/, keys: `5${KEY.enter}` },
      { prompt: /Order number/, keys: KEY.enter },
      { prompt: /Description/, keys: KEY.enter },
      { prompt: /\[y\/N\]/, keys: `n${KEY.enter}` },
    ]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('cancelled');
    expect(result.stdout).toBe('');
    expect(await payctlJson(['transactions', 'list'], { home })).toEqual([]);
  });

  it('an invalid answer is refused and asked again', async ({ home }) => {
    const result = await converse(['transactions', 'create', '--payment-type', 'pix', '-o', 'json', '--yes'], home, [
      { prompt: /Amount/, keys: `1.005${KEY.enter}` },
      { prompt: /decimal/i, keys: `\x7f\x7f\x7f\x7f\x7f2${KEY.enter}` },
      { prompt: /Order number/, keys: KEY.enter },
      { prompt: /Description/, keys: KEY.enter },
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).amount).toBe('2.00');
  });

  it('boleto asks for the buyer, chosen among the latest by name', async ({ home }) => {
    const { SANDBOX_BUYER_ID } = await import('../../src/provider/sandbox-account.js');
    const result = await converse(['transactions', 'create', '-o', 'json'], home, [
      { prompt: /Payment type/, keys: `${KEY.down}${KEY.enter}` },
      { prompt: /Amount/, keys: `150${KEY.enter}` },
      { prompt: /Buyer/, choose: 'Maria Silva · maria.silva@example.com' },
      { prompt: /Order number/, keys: KEY.enter },
      { prompt: /Description/, keys: `Mensalidade${KEY.enter}` },
      { prompt: /\[y\/N\]/, keys: `y${KEY.enter}` },
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'pending', payment_type: 'boleto', customer: SANDBOX_BUYER_ID });
  });

  it('a new card saved to a buyer: the buyer chosen, then the card; saved, then charged', async ({ home }) => {
    const buyer = await payctlJson<{ id: string }>(['buyers', 'create', '--first-name', 'Joana', '--last-name', 'Pereira', '--taxpayer-id', '111.444.777-35'], { home });
    const result = await converse(['transactions', 'create', '-o', 'json'], home, [
      { prompt: /Payment type/, keys: KEY.enter },
      { prompt: /Amount/, keys: `149,90${KEY.enter}` },
      { prompt: /Pay with/, choose: 'New card, saved to a buyer' },
      { prompt: /Installments/, keys: KEY.enter },
      { prompt: /Buyer/, choose: 'Joana Pereira' },
      { prompt: /Card number/, keys: `5555555555554444${KEY.enter}` },
      { prompt: /Cardholder name/, keys: `Joana Pereira${KEY.enter}` },
      { prompt: /Expiry month/, keys: `12${KEY.enter}` },
      { prompt: /Expiry year/, keys: `2031${KEY.enter}` },
      { prompt: /CVV/, keys: `123${KEY.enter}` },
      { prompt: /Order number/, keys: `pedido-9${KEY.enter}` },
      { prompt: /Description/, keys: KEY.enter },
      { prompt: /Create this card transaction of R\$ 149,90\? \[y\/N\]/, keys: `y${KEY.enter}` },
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/\n {2}Card +MasterCard ••••4444, Joana Pereira \(saved to the buyer first\)\n {2}Buyer +\S/);
    const tx = JSON.parse(result.stdout);
    const card = (await payctlJson<{ default_credit: string }>(['buyers', 'get', buyer.id], { home })).default_credit;
    expect(result.stderr).toContain(`Saved MasterCard ••••4444 to the buyer as card ${card}\n`);
    expect(tx).toMatchObject({ customer: buyer.id, reference_id: 'pedido-9', payment_method: { id: card } });
  }, 20_000);

  it('Ctrl-C at a prompt cancels with exit 3', async ({ home }) => {
    const result = await converse(['transactions', 'create'], home, [{ prompt: /Payment type/, keys: KEY.ctrlC }]);
    expect(result.code).toBe(3);
  });
});

describe('confirmations on a terminal', () => {
  it('refund asks "[y/N]" with the amount, card and holder; yes refunds', async ({ home }) => {
    const tx = await payctlJson<{ id: string }>(['transactions', 'create', '--amount', '10.50', '--card-number', '4111111111111111', '--holder-name', 'Maria Silva', '--exp-month', '12', '--exp-year', '2031', '--cvv', '123'], { home });
    const result = await converse(['transactions', 'refund', tx.id, '-o', 'json'], home, [
      { prompt: new RegExp(`Refund R\\$ 10,50 of transaction ${tx.id} \\(Visa ••••1111, Maria Silva\\)\\? \\[y/N\\]`), keys: `y${KEY.enter}` },
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'canceled', voided: true });
  });

  it('refund answered with the default (no) cancels and refunds nothing', async ({ home }) => {
    const tx = await payctlJson<{ id: string }>(['transactions', 'create', '--amount', '10.50', '--card-number', '4111111111111111', '--holder-name', 'Maria Silva', '--exp-month', '12', '--exp-year', '2031', '--cvv', '123'], { home });
    const result = await converse(['transactions', 'refund', tx.id], home, [{ prompt: /\[y\/N\]/, keys: KEY.enter }]);
    expect(result.code).toBe(3);
    expect((await payctlJson<{ status: string }>(['transactions', 'get', tx.id], { home })).status).toBe('succeeded');
  });

  it('cards tokenize prompts with hidden input', async ({ home }) => {
    const result = await converse(['cards', 'tokenize', '-o', 'json'], home, [
      { prompt: /Card number/, keys: `5555555555554444${KEY.enter}` },
      { prompt: /Cardholder name/, keys: `Ana Lima${KEY.enter}` },
      { prompt: /Expiry month/, keys: `1${KEY.enter}` },
      { prompt: /Expiry year/, keys: `2032${KEY.enter}` },
      { prompt: /CVV/, keys: `999${KEY.enter}` },
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).card).toMatchObject({ card_brand: 'MasterCard', first4_digits: '5555' });
    expect(result.stderr).not.toContain('5555555555554444');
    // The CVV never echoed; random 32-hex ids (the token's) may hold those digits, so they go first.
    expect(result.stderr.replace(/[0-9a-f]{32}/g, '')).not.toContain('999');
  });
});

describe('login on a terminal', () => {
  it('asks for what is missing, the API key hidden, and saves the profile', async ({ home, recording }) => {
    const server = await recording([{ status: 200, body: { resource: 'list', items: [], has_more: false } }]);
    const result = await converse(['login', '--profile', 'live', '--insecure-storage'], home, [
      { prompt: /API base URL/, keys: `${server.url}${KEY.enter}` },
      { prompt: /Marketplace id/, keys: `mkt1${KEY.enter}` },
      { prompt: /Default seller id/, keys: `seller1${KEY.enter}` },
      { prompt: /API key/, keys: `zpk_live_typedsecret99${KEY.enter}` },
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('zpk_live_typedsecret99');
    expect(result.stderr).toContain('zpk_…et99');
    expect(server.requests[0]!.url).toBe('/v1/marketplaces/mkt1/transactions?limit=1');
    const who = await payctlJson(['whoami'], { home });
    expect(who).toMatchObject({ profile: 'live', base_url: server.url, marketplace_id: 'mkt1', seller_id: 'seller1', api_key: 'zpk_…et99' });
  });
});
