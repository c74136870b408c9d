import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { currentOwner } from '../../src/platform/owner.js';
import { parseSince } from '../../src/commands/ledger/list.js';
import { createCard, expectUsage, run } from './helpers.js';

// `payctl ledger`: what the ledger holds, read and steered from the command line. A table on a
// terminal, JSON when piped, like every list.
const holder = currentOwner().holder;

describe('payctl ledger list', () => {
  it('recent moves, newest first: when, who, what, on what, amount, state, batch; filters by state, time and transaction', async ({ home }) => {
    const [a, b, c] = [await createCard(home, '10.00'), await createCard(home, '10.00'), await createCard(home, '10.00')];
    expect((await run(home, ['transactions', 'refund', a.id, '--amount', '1.00', '--yes'])).code).toBe(0);
    // Row 2 asks for more than the sale has: refused before sending, so the ledger holds no intent for it.
    const bulk = await run(home, ['transactions', 'refund', '--file', '-', '--yes', '--concurrency', '1'], { stdin: `id,amount\n${b.id},2.50\n${c.id},99.00\n` });
    expect(bulk.code).toBe(10);
    expect(bulk.stdout).toContain('is more than the R$ 10,00 left to refund');

    const listed = JSON.parse((await run(home, ['ledger', 'list'])).stdout);
    // The three sales were created through payctl too: those creates are the oldest moves.
    expect(listed.slice(2).map((i: Record<string, unknown>) => [i.action, i.amount, i.state])).toEqual(Array(3).fill(['create', '10.00', 'applied']));
    expect(listed.slice(0, 2).map((i: Record<string, unknown>) => [i.action, i.target, i.amount, i.state, i.batch, i.holder])).toEqual([
      ['refund', b.id, '2.50', 'applied', 'standard input', holder],
      ['refund', a.id, '1.00', 'applied', null, holder],
    ]);
    expect(listed[0]).toMatchObject({ created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/), pid: expect.any(Number) });

    const refused = JSON.parse((await run(home, ['ledger', 'list', '--state', 'refused'])).stdout);
    expect(refused).toEqual([]);
    // A comma list, as --help and the guide write it.
    const either = JSON.parse((await run(home, ['ledger', 'list', '--state', 'refused,Applied'])).stdout);
    expect(either.map((i: { state: string }) => i.state)).toEqual(['applied', 'applied', 'applied', 'applied', 'applied']);
    const ofA = JSON.parse((await run(home, ['ledger', 'list', '--transaction', a.id, '--since', '1h'])).stdout);
    expect(ofA.map((i: { action: string; amount: string }) => [i.action, i.amount])).toEqual([['refund', '1.00']]);
    const tomorrow = new Date(Date.now() + 86_400_000);
    const day = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
    const none = await run(home, ['ledger', 'list', '--since', day]);
    expect([none.code, JSON.parse(none.stdout)]).toEqual([0, []]);
    expect(none.stderr).toContain('no money moves in the ledger');

    const table = await run(home, ['ledger', 'list', '--no-color'], { tty: true, columns: 160 });
    expect(table.code, table.stderr).toBe(0);
    const [header, first] = table.stdout.split('\n');
    expect(header).toMatch(/^WHEN +WHAT +ON +AMOUNT +STATE +WHO +BATCH/);
    expect(first).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d  refund  ${b.id} +R\\$ 2,50  applied +${holder}  standard input$`));
    // A date and a time, in the zone the table names under it.
    expect(table.stdout.trimEnd().split('\n').at(-1)).toBe('times in UTC');
    // At 80 columns who and the batch give way; when, what, on what, amount and state stay whole
    // (a create's target, its 43-character reference, leaves no room for them: rows go as blocks).
    const narrow = await run(home, ['ledger', 'list', '--transaction', b.id, '--no-color'], { tty: true, columns: 80 });
    expect(narrow.stdout.split('\n')[1]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d  refund  ${b.id} +R\\$ 2,50  applied`));
    // Display only: JSON keeps the ledger's own fields.
    expect(listed[0]).not.toHaveProperty('when');
  });

  it('refuses what it cannot read, naming the flag (exit 2)', async ({ home }) => {
    expectUsage(await run(home, ['ledger', 'list', '--state', 'done']), '--state: "done" is not valid; use one or more of pending, applied, refused, not_applied, unknown');
    expectUsage(await run(home, ['ledger', 'list', '--since', 'yesterday']), '--since');
    expectUsage(await run(home, ['ledger', 'list', '--limit', '0']), '--limit');
    expectUsage(await run(home, ['ledger', 'list', '--transaction', 'not an id']), '--transaction: malformed transaction id');
  });

  it('--since: a day is its start on the local clock; 30m, 12h, 7d count back from now', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(parseSince('30m', now)).toBe(now - 30 * 60_000);
    expect(parseSince('7d', now)).toBe(now - 7 * 86_400_000);
    expect(parseSince('2026-11-20', now)).toBe(new Date(2026, 10, 20).getTime());
  });
});

describe('payctl ledger show and unlock', () => {
  it('show: every move on a transaction; nothing there is exit 2', async ({ home }) => {
    const sale = await createCard(home, '10.00');
    expectUsage(await run(home, ['ledger', 'show', sale.id]), `has no money move on ${sale.id}`);
    expect((await run(home, ['transactions', 'refund', sale.id, '--amount', '1.00', '--yes'])).code).toBe(0);
    const shown = JSON.parse((await run(home, ['ledger', 'show', sale.id])).stdout);
    expect(shown).toMatchObject({ target: sale.id, intents: [{ action: 'refund', amount: '1.00', state: 'applied', proof: expect.any(String) }], locks: [] });
  });

  it('unlock needs --force; a key that is not locked is said so (exit 0); a bad key is exit 2', async ({ home }) => {
    const sale = await createCard(home, '10.00');
    expectUsage(await run(home, ['ledger', 'unlock', sale.id]), `--force required to unlock transaction:${sale.id}`);
    const free = await run(home, ['ledger', 'unlock', sale.id, '--force']);
    expect(free.code, free.stderr).toBe(0);
    expect(free.stderr).toContain(`transaction:${sale.id} is not locked in the ledger`);
    expectUsage(await run(home, ['ledger', 'unlock', 'nonsense', '--force']), '"nonsense" is not a lock');
  });
});
