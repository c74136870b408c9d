import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { Factory } from '../../src/factory.js';
import { parseGlobals } from '../../src/globals.js';
import type { IO } from '../../src/io.js';
import type { Actor } from '../../src/ledger/actor.js';
import { judgeMove } from '../../src/ledger/policy/judge.js';
import { currentOwner } from '../../src/platform/owner.js';
import { freshDatabase, postgresForFile } from '../helpers/postgres.js';
import { printedRules } from '../helpers/printed.js';
import { tempHome, testEnv } from '../helpers/run.js';
import { servedSandboxForBlock, spawnOnMachine, spawnPayctl } from '../helpers/serve.js';
import { createCard, getTx } from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

// The team's rules on a shared ledger: two "machines" (two PAYCTL_HOMEs, one in a UTS namespace of
// its own with the hostname caixa-2) on one PostgreSQL server started for this file. Nobody
// loosens a rule alone: a rule removed or raised by one operator stays as it was until the other
// approves the change (a refund above the old rule still waits for approval, exit 13, nothing
// sent); a new limit added by one is in force for both at once. Both use one served sandbox, whose
// sales the test checks: a refund a rule held never voided anything.
const postgres = postgresForFile();
const served = servedSandboxForBlock();
const voids = (tx: Transaction) => tx.history.filter((h) => h.operation_type === 'void' && h.status === 'succeeded').length;
const user = currentOwner().holder.split('@')[0] as string;
const here: Actor = { holder: currentOwner().holder, kind: 'person' };
const there: Actor = { holder: `${user}@caixa-2`, kind: 'person' };

let machines: Array<{ home: string; cleanup: () => void }> = [];
let env: Record<string, string>;
beforeEach(async () => {
  machines = [tempHome(), tempHome()];
  env = { ...served().env, PAYCTL_LEDGER_URL: await freshDatabase(postgres()) };
});
afterEach(() => {
  for (const machine of machines) machine.cleanup();
});

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `payctl <args>` on caixa-2, or on this machine. */
async function on(machine: 'caixa-2' | 'here', args: string[]): Promise<Ended> {
  const run = machine === 'caixa-2' ? spawnOnMachine('caixa-2', args, machines[0]!.home, env) : spawnPayctl(args, machines[1]!.home, env);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

const listed = async (machine: 'caixa-2' | 'here') => {
  const result = await on(machine, ['policy', 'list', '-o', 'json']);
  expect(result.code, result.stderr).toBe(0);
  return z.parse(printedRules, JSON.parse(result.stdout));
};

/** The shared ledger's rules, opened here as a command opens it: what another operator decides on it. */
async function teamLedger() {
  const io: IO = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, env: testEnv(machines[1]!.home, env) };
  const factory = new Factory(io, parseGlobals({}));
  const { ledger } = await factory.moneyGuard();
  return { ledger, book: ledger.policy, close: () => factory.close() };
}

const requestIn = (result: Ended) => /waits as request (apr_\w{8})/.exec(result.stderr)?.[1];

describe('rules on a shared ledger, two machines', () => {
  it('a rule raised or removed by one operator alone stays in force until the other approves; a new limit added alone is in force at once', async () => {
    // No rule yet: the first takes effect at once, set here. A rule for one operator, and --above
    // for anyone, are welcome on a shared ledger.
    const first = await on('here', ['policy', 'add', '--operation', 'refund', '--above', '500']);
    expect(first.code, first.stderr).toBe(0);
    const above = JSON.parse(first.stdout) as { id: string };
    expect((await on('caixa-2', ['policy', 'add', '--operation', 'capture', '--block', '--actor', `${user}@caixa-2`])).code).toBe(0);

    // Raised on caixa-2 alone: a request, exit 13; on both machines the R$ 500,00 rule is in force.
    const raised = await on('caixa-2', ['policy', 'add', '--operation', 'refund', '--above', '5000']);
    expect(raised.code, raised.stderr).toBe(13);
    expect(raised.stderr).toContain(`in place of rule ${above.id} (refunds above R$ 500,00 by anyone need approval) loosens the team's rules, so another operator approves it`);
    expect(raised.stderr).not.toContain("this machine's own ledger");
    const raise = requestIn(raised)!;
    for (const machine of ['here', 'caixa-2'] as const) {
      const rules = await listed(machine);
      expect(rules.map((r) => [r.id, r.state, r.amount])).toEqual([
        [above.id, 'active', '500.00'],
        [expect.stringMatching(/^rule_/), 'active', null],
        [raise, 'pending', '5000.00'],
      ]);
      expect(rules[2]).toMatchObject({ change: 'add', changes_rule: above.id, set_by: `${user}@caixa-2` });
    }
    // A refund of R$ 600,00 from caixa-2 still waits for approval under the old rule: exit 13, nothing sent.
    const sale = await createCard(served().home, '9000.00');
    const held = await on('caixa-2', ['transactions', 'refund', sale.id, '--amount', '600', '--yes']);
    expect(held.code, held.stderr).toBe(13);
    expect(held.stderr).toContain(`rule ${above.id}: refunds above R$ 500,00 by anyone need approval`);
    expect(voids(await getTx(served().home, sale.id))).toBe(0);
    const team = await teamLedger();
    try {
      // What the money guard reads: a refund of R$ 600,00 by anyone still waits for approval, under the old rule.
      const inForce = await team.book.rules();
      expect(judgeMove(inForce, { operation: 'refund', amountCents: 60_000 }, there)).toMatchObject({ kind: 'approval', rule: { id: above.id } });
      expect(await team.book.request(raise, team.ledger.now())).toMatchObject({ state: 'pending', requester: `${user}@caixa-2`, requester_kind: 'script' });

      // This machine's operator approves: the raise lands, set by caixa-2, approved here.
      expect((await team.book.approve(raise, here, team.ledger.now())).ok).toBe(true);
      expect(judgeMove(await team.book.rules(), { operation: 'refund', amountCents: 60_000 }, there)).toEqual({ kind: 'send', limits: [] });
    } finally {
      await team.close();
    }
    const after = await listed('caixa-2');
    expect(after.map((r) => [r.operation, r.amount, r.state])).toEqual([
      ['capture', null, 'active'],
      ['refund', '5000.00', 'active'],
    ]);
    expect(after[1]).toMatchObject({ set_by: `${user}@caixa-2`, approved_by: here.holder, approved_at: expect.any(String) });
    expect((await listed('here')).find((r) => r.id === above.id)).toBeUndefined();

    // Approved, the raised rule is the one in force: R$ 700,00 of another sale is refunded at once.
    const other = await createCard(served().home, '9000.00');
    const sent = await on('caixa-2', ['transactions', 'refund', other.id, '--amount', '700', '--yes']);
    expect(sent.code, sent.stderr).toBe(0);
    expect(voids(await getTx(served().home, other.id))).toBe(1);

    // Removed here alone: the rule stays, for both, until caixa-2 approves.
    const raisedRule = after[1]!.id;
    const removed = await on('here', ['policy', 'remove', raisedRule]);
    expect(removed.code, removed.stderr).toBe(13);
    const removal = requestIn(removed)!;
    expect((await listed('caixa-2')).filter((r) => r.state === 'active').map((r) => r.id)).toContain(raisedRule);
    const third = await createCard(served().home, '9000.00');
    const stillHeld = await on('here', ['transactions', 'refund', third.id, '--amount', '6000', '--yes']);
    expect(stillHeld.code, stillHeld.stderr).toBe(13);
    expect(stillHeld.stderr).toContain(`rule ${raisedRule}: refunds above R$ 5.000,00 by anyone need approval`);
    expect(voids(await getTx(served().home, third.id))).toBe(0);
    const again = await teamLedger();
    try {
      expect(judgeMove(await again.book.rules(), { operation: 'refund', amountCents: 600_000 }, here)).toMatchObject({ kind: 'approval', rule: { id: raisedRule } });
      expect((await again.book.approve(removal, there, again.ledger.now())).ok).toBe(true);
    } finally {
      await again.close();
    }
    expect((await listed('here')).map((r) => r.operation)).toEqual(['capture']);

    // A new limit added on caixa-2 alone tightens the rules: in force at once, for this machine too.
    const limit = await on('caixa-2', ['policy', 'add', '--operation', 'refund', '--daily-limit', '300', '--per', 'team']);
    expect(limit.code, limit.stderr).toBe(0);
    expect(limit.stderr).toContain('is in force now');
    const limited = await listed('here');
    expect(limited.map((r) => [r.rule, r.state, r.approved_by])).toEqual([
      ['captures by ' + `${user}@caixa-2` + ' are blocked', 'active', null],
      ['refunds by anyone: at most R$ 300,00 a day for the whole team', 'active', null],
    ]);
  }, 90_000);
});
