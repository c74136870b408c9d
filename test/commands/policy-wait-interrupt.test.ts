import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { addRule, withBook } from '../helpers/policy.js';
import { eventually, servedSandboxForBlock, spawnPayctl } from '../helpers/serve.js';
import { createCard, getTx, run } from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

// Ctrl-C while a money move waits for its approval (--wait): the command stops waiting (exit 3)
// and says the request is still pending; the request stays in the ledger for an approver, and a
// rerun finds it instead of asking again. bin/payctl, so that the signal is the process's own.
const voids = (tx: Transaction) => tx.history.filter((h) => h.operation_type === 'void' && h.status === 'succeeded').length;

describe('--wait, interrupted', () => {
  const served = servedSandboxForBlock();

  it('Ctrl-C: exit 3, the request still pending and named; nothing sent', async ({ home }) => {
    const sale = await createCard(served().home, '800.00');
    await addRule(home, { kind: 'above', amount_cents: 50_000 }, served().env);
    const args = ['transactions', 'refund', sale.id, '--amount', '600', '--yes', '--wait'];
    const waiting = spawnPayctl(args, home, served().env);
    await eventually(() => waiting.stderr().includes('waiting for a decision on request'), 10_000, 'the refund to wait for a decision');
    waiting.child.kill('SIGINT');
    expect(await waiting.exited).toBe(3);
    const [request] = await withBook(home, (book, now) => book.requests({ limit: 5 }, now), served().env);
    expect(request).toMatchObject({ state: 'pending', amount_cents: 60_000 });
    expect(waiting.stderr()).toContain(`\ncancelled: stopped waiting; request ${request!.id} is still pending, and is sent if approved. Check with: payctl approvals show ${request!.id}\n`);
    const again = await run(home, args.filter((a) => a !== '--wait'), { env: served().env });
    expect(again.code, again.stderr).toBe(13);
    expect(again.stderr).toContain(`Request ${request!.id} (asked before, still pending)`);
    expect(voids(await getTx(served().home, sale.id))).toBe(0);
  }, 30_000);
});
