// The lost answers of `transactions splits add|remove`: each first run waits out the look for its
// own lost answer with --timeout 1 (about 4 s of real time) before it says the outcome is unknown,
// so this file runs in the full lane (WAITS in test/vitest.config.ts).
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { recordingServer, type RecordedRequest, type Reply, type Route } from '../helpers/recording-server.js';
import type { RunResult } from '../helpers/run.js';
import { createCard, expectError, RECORDED_MARKETPLACE, run } from './helpers.js';

const A = 'a1'.repeat(16);

/**
 * Runs against one recording server for the whole test, so every run talks to the same service
 * (the ledger keeps intents per service): `requests` holds what each run sent.
 */
async function againstOneServer(home: string, route: Route, body: (send: (args: string[]) => Promise<{ result: RunResult; requests: RecordedRequest[] }>) => Promise<void>): Promise<void> {
  const server = await recordingServer(route);
  const env = { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_live_abcdefgh12345678', PAYCTL_MARKETPLACE_ID: RECORDED_MARKETPLACE };
  try {
    await body(async (args) => {
      const before = server.requests.length;
      const result = await run(home, args, { env });
      return { result, requests: server.requests.slice(before) };
    });
  } finally {
    await server.close();
  }
}

describe('transactions splits add|remove whose answer is lost', () => {
  it('a lost answer to an add is settled by looking, never by sending again', async ({ home }) => {
    const sale = await createCard(home, '100.00');
    const rule = { id: 'r'.repeat(32), resource: 'split_rule', transaction: sale.id, recipient: A, liable: false, charge_processing_fee: false, percentage: '30.00', amount: null };
    // The first run's POST is dropped unanswered and the rule never shows while it looks.
    let landed = false;
    let seen = false;
    const route = (req: { method: string; path: string }): Reply => {
      if (req.method === 'POST') {
        landed = true;
        return { destroy: true };
      }
      if (req.path.includes('/split_rules')) return { status: 200, body: { items: seen ? [rule] : [], has_more: false } };
      return { status: 200, body: sale };
    };
    const args = ['transactions', 'splits', 'add', sale.id, '--split', `${A}:30%`, '--yes', '--timeout', '1'];
    await againstOneServer(home, route, async (send) => {
      const first = await send(args);
      expectError(first.result, 9, 'outcome unknown', `the split rule for seller ${A} on transaction ${sale.id}`);
      expect(landed).toBe(true);
      // What the one POST carried: the part, and the cents 30% is worth of the sale's R$ 100,00.
      expect(first.requests.filter((r) => r.method === 'POST').map((r) => r.json)).toEqual([{ recipient: A, liable: false, charge_processing_fee: false, amount: 3000, percentage: 30 }]);
      // It had landed after all: the rerun settles the intent the first run left by looking, finds the rule, sends nothing.
      seen = true;
      const again = await send(args);
      expect(again.result.code, again.result.stderr).toBe(0);
      expect(again.result.stderr).toContain(`an earlier run (`);
      expect(again.result.stderr).toContain('Already done');
      expect(JSON.parse(again.result.stdout).id).toBe(rule.id);
      expect(again.requests.filter((r) => r.method === 'POST')).toEqual([]);
    });
  }, 20_000);

  it('a lost answer to a removal is settled by looking: the rerun finds the rule gone and sends nothing', async ({ home }) => {
    const sale = await createCard(home, '100.00');
    const rule = { id: 'r'.repeat(32), resource: 'split_rule', transaction: sale.id, recipient: A, liable: false, charge_processing_fee: false, percentage: '30.00', amount: null };
    let gone = false;
    const route = (req: { method: string; path: string }): Reply => {
      if (req.method === 'DELETE') return { destroy: true };
      if (req.path.includes(`/split_rules/${rule.id}`)) return gone ? { status: 404, body: { error: { status_code: 404, type: 'resource_not_found', message: 'gone' } } } : { status: 200, body: rule };
      if (req.path.includes('/split_rules')) return { status: 200, body: { items: gone ? [] : [rule], has_more: false } };
      return { status: 200, body: sale };
    };
    const args = ['transactions', 'splits', 'remove', sale.id, rule.id, '--yes', '--timeout', '1'];
    await againstOneServer(home, route, async (send) => {
      const first = await send(args);
      expectError(first.result, 9, 'outcome unknown', `the removal of split rule ${rule.id} of transaction ${sale.id}`);
      expect(first.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
      gone = true;
      const again = await send(args);
      expect(again.result.code, again.result.stderr).toBe(0);
      expect(again.result.stderr).toContain(`Already done: split rule ${rule.id} of transaction ${sale.id} was removed by an earlier run`);
      expect(JSON.parse(again.result.stdout)).toEqual({ id: rule.id, resource: 'split_rule', deleted: true });
      expect(again.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    });
  }, 20_000);
});
