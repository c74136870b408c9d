import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { openSqlite } from '../../src/platform/sqlite.js';
import { it } from '../helpers/fixtures.js';
import { spawnPayctl } from '../helpers/serve.js';
import { createCard, run } from './helpers.js';

// `payctl ledger export` of a ledger far larger than its memory: 40,000 intents of 3 KB each
// (120 MB as read) written by a payctl whose heap is capped at 64 MB. Read a page at a time, it
// holds one page; read whole, it would run out of memory.
const INTENTS = 40_000;

describe('payctl ledger export, a large ledger', () => {
  it('exports every intent under a 64 MB heap', async ({ home }) => {
    const sale = await createCard(home, '10.00');
    expect((await run(home, ['transactions', 'refund', sale.id, '--amount', '1.00', '--yes'])).code).toBe(0);
    // The rest written straight into the ledger, as years of a team's moves would have left it.
    const db = await openSqlite(join(home, 'state', 'ledger', 'ledger.sqlite'));
    const [scope] = (db.prepare('SELECT scope FROM payctl_intents LIMIT 1').all() as Array<{ scope: string }>).map((r) => r.scope);
    const before = JSON.stringify({ amount: '10.00', history: 'x'.repeat(3000) });
    const insert = db.prepare(
      `INSERT INTO payctl_intents (scope, key, operation, target, requested_cents, amount_cents, before, state, created_at, updated_at, holder, operator_name, pid)
       VALUES (?, ?, 'transactions.void', ?, 100, 100, ?, 'applied', ?, ?, 'ana@caixa-2', 'Ana Souza', 4242)`,
    );
    const at = Date.now() - 86_400_000;
    db.exec('BEGIN');
    for (let i = 0; i < INTENTS; i += 1) {
      const target = i.toString(16).padStart(32, '0');
      insert.run(scope as string, `transaction:${target}`, target, before, at + i, at + i);
    }
    db.exec('COMMIT');
    db.close();

    const out = join(home, 'trail.ndjson');
    const exported = spawnPayctl(['ledger', 'export', '--out', out], home, { NODE_OPTIONS: '--max-old-space-size=64' });
    expect(await exported.exited, exported.stderr()).toBe(0);
    expect(exported.stderr()).toMatch(new RegExp(`^exported 40\\.002 records of the ledger .* to ${out}\\n$`));
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(INTENTS + 2);
    expect(JSON.parse(lines.at(-1) as string)).toMatchObject({ kind: 'intent', id: INTENTS + 2, holder: 'ana@caixa-2', operator_name: 'Ana Souza', amount: '1.00' });
  }, 120_000);
});
