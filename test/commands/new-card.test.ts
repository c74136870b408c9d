import { describe, expect } from 'vitest';
import * as z from 'zod/mini';
import { SANDBOX_API_KEY, SANDBOX_MARKETPLACE_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { it } from '../helpers/fixtures.js';
import { recordingProxy, type ProxyFault } from '../helpers/recording-proxy.js';
import type { RecordedRequest } from '../helpers/recording-server.js';
import { readStateFiles } from '../../src/sandbox/store.js';
import { ledgerShown } from '../helpers/printed.js';
import { cardFlags, expectError, expectJson, MASTERCARD, present, run } from './helpers.js';

// A sale to a known buyer with a new card, in one command: the card is tokenized, saved to the
// buyer and charged by its id, as one guarded move. Checked against the sandbox's own state: one
// card saved to the buyer, one sale, however the run failed in the middle and however many times
// it was run again.

/** The sandbox behind a proxy that fails what `fault` says; payctl pointed at the proxy. */
async function behindProxy(url: string, fault: (request: RecordedRequest) => ProxyFault) {
  const proxy = await recordingProxy(url, fault);
  const env = { PAYCTL_BASE_URL: proxy.url, PAYCTL_API_KEY: SANDBOX_API_KEY, PAYCTL_MARKETPLACE_ID: SANDBOX_MARKETPLACE_ID, PAYCTL_SELLER_ID: SANDBOX_SELLER_ID };
  const sent = (method: string, path: string) => proxy.requests.filter((r) => r.method === method && r.path === `/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}${path}`).length;
  return { proxy, env, sent };
}

/** What the sandbox holds of `buyer`: their cards, the sales charged to them, and every token made. */
async function holdings(dir: string, buyer: string) {
  const state = present(await readStateFiles(dir), 'the sandbox state');
  return {
    cards: Object.values(state.cards).filter((card) => card.customer === buyer),
    sales: state.transactions.map((stored) => stored.txn).filter((tx) => tx.customer === buyer),
    tokens: Object.values(state.tokens).length,
    buyer: Object.values(state.buyers).find((b) => b.id === buyer),
  };
}

const NEW_CARD = cardFlags(MASTERCARD, { '--holder-name': 'Joana Pereira' });

describe('a new card for a known buyer, in one command', () => {
  it('tokenizes it, saves it to the buyer (their default card, being their first) and charges it by its id', async ({ home, sandbox }) => {
    const { proxy, env, sent } = await behindProxy(sandbox.sandbox.url, () => undefined);
    try {
      const buyer = expectJson(await run(home, ['buyers', 'create', '--first-name', 'Joana', '--last-name', 'Pereira', '--taxpayer-id', '111.444.777-35'], { env }));
      const result = await run(home, ['transactions', 'create', '--customer', buyer.id, ...NEW_CARD, '--amount', '149,90', '--reference-id', 'pedido-7788'], { env });
      const tx = expectJson(result);
      const held = await holdings(sandbox.dir, buyer.id);
      expect(held.cards).toHaveLength(1);
      const card = present(held.cards[0]);
      expect(result.stderr).toContain(`Saved MasterCard ••••4444 to the buyer as card ${card.id}\n`);
      expect(tx).toMatchObject({ status: 'succeeded', amount: '149.90', customer: buyer.id, reference_id: 'pedido-7788', payment_method: { id: card.id, last4_digits: '4444' } });
      expect(held.sales.map((s) => s.id)).toEqual([tx.id]);
      expect(held.buyer?.default_credit).toBe(card.id);
      // The charge names the saved card, never the card's digits.
      const charge = proxy.requests.find((r) => r.method === 'POST' && r.path.endsWith('/transactions'));
      expect(charge?.json).toMatchObject({ customer: buyer.id, source: { card: { id: card.id } } });
      expect(charge?.body).not.toContain(MASTERCARD);
      expect([sent('POST', '/cards/tokens'), sent('POST', '/cards'), sent('POST', '/transactions')]).toEqual([1, 1, 1]);
      // The ledger keeps the card saved under the sale.
      const moves = z.parse(ledgerShown, JSON.parse((await run(home, ['ledger', 'show', 'pedido-7788', '-o', 'json'], { env })).stdout)).intents;
      expect(moves.map((m) => [m.action, m.state, m.proof])).toEqual([
        ['card save', 'applied', card.id],
        ['create', 'applied', tx.id],
      ]);
    } finally {
      await proxy.close();
    }
  });

  it("the charge's answer lost and not seen (exit 9): the rerun finds the sale and neither charges nor saves the card again", async ({ home, sandbox }) => {
    let failing = true;
    const { proxy, env, sent } = await behindProxy(sandbox.sandbox.url, (r) => {
      if (!failing || !r.path.endsWith('/transactions')) return undefined;
      return r.method === 'POST' ? 'lose-answer' : 'unavailable';
    });
    try {
      const buyer = expectJson(await run(home, ['buyers', 'create', '--first-name', 'Joana', '--taxpayer-id', '111.444.777-35'], { env }));
      const args = ['transactions', 'create', '--customer', buyer.id, ...NEW_CARD, '--amount', '50', '--timeout', '1'] as const;
      const first = await run(home, args, { env });
      const card = present((await holdings(sandbox.dir, buyer.id)).cards[0]);
      expectError(first, 9, 'outcome unknown', `the card MasterCard ••••4444 is saved to buyer ${buyer.id} as card ${card.id}: the rerun charges that card, if this charge did not go through`);
      failing = false;
      const again = await run(home, args, { env });
      const tx = expectJson(again);
      expect(again.stderr).toContain('not charging again');
      const held = await holdings(sandbox.dir, buyer.id);
      expect([held.cards.length, held.sales.map((s) => s.id), held.tokens]).toEqual([1, [tx.id], 1]);
      expect(tx.payment_method.id).toBe(card.id);
      expect([sent('POST', '/cards/tokens'), sent('POST', '/cards'), sent('POST', '/transactions')]).toEqual([1, 1, 1]);
    } finally {
      await proxy.close();
    }
  }, 20_000);

  it('the charge never made (exit 8): the card is said saved; the rerun of the sale charges that card, not a second one', async ({ home, sandbox }) => {
    let failing = true;
    const { proxy, env, sent } = await behindProxy(sandbox.sandbox.url, (r) => (failing && r.method === 'POST' && r.path.endsWith('/transactions') ? 'unavailable' : undefined));
    try {
      const buyer = expectJson(await run(home, ['buyers', 'create', '--first-name', 'Joana', '--taxpayer-id', '111.444.777-35'], { env }));
      const args = ['transactions', 'create', '--customer', buyer.id, ...NEW_CARD, '--amount', '50', '--reference-id', 'pedido-51', '--timeout', '1'] as const;
      const first = await run(home, args, { env: { ...env, PAYCTL_SETTLE_WINDOW: '1' } });
      const card = present((await holdings(sandbox.dir, buyer.id)).cards[0]);
      expect(first.code, first.stderr).toBe(8);
      expect(first.stderr).toContain(`the card MasterCard ••••4444 is saved to buyer ${buyer.id} as card ${card.id}: to charge it, give --card ${card.id} instead of the card's details`);
      expect((await holdings(sandbox.dir, buyer.id)).sales).toEqual([]);
      failing = false;
      const again = await run(home, args, { env });
      const tx = expectJson(again);
      expect(again.stderr).toContain(`Charging card ${card.id} (MasterCard ••••4444), which an earlier run of this sale saved to the buyer\n`);
      const held = await holdings(sandbox.dir, buyer.id);
      expect([held.cards.map((c) => c.id), held.sales.map((s) => s.id), held.tokens]).toEqual([[card.id], [tx.id], 1]);
      expect(sent('POST', '/cards/tokens')).toBe(1);
    } finally {
      await proxy.close();
    }
  }, 20_000);

  it('a buyer that does not exist: the card is not saved and nothing is charged, and it says so', async ({ home, sandbox }) => {
    const { proxy, env, sent } = await behindProxy(sandbox.sandbox.url, () => undefined);
    try {
      const result = await run(home, ['transactions', 'create', '--customer', 'f'.repeat(32), ...NEW_CARD, '--amount', '50'], { env });
      expectError(result, 5, `the card was not saved to buyer ${'f'.repeat(32)}, and nothing was charged`);
      expect(sent('POST', '/transactions')).toBe(0);
      const state = present(await readStateFiles(sandbox.dir), 'the sandbox state');
      expect(state.transactions).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('--card with --customer, or --card with the card details, is still one way to pay too many', async ({ home }) => {
    const line = expectError(await run(home, ['transactions', 'create', '--card', 'a'.repeat(32), ...NEW_CARD, '--amount', '5']), 2, 'choose one way to pay: card details, --card were all given');
    expect(line).toContain('(a new card for a buyer is its details with --customer)');
  });
});
