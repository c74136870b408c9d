import { PassThrough } from 'node:stream';
import { describe, expect } from 'vitest';
import * as z from 'zod/mini';
import { Factory } from '../../src/factory.js';
import { parseGlobals } from '../../src/globals.js';
import type { IO } from '../../src/io.js';
import type { Actor } from '../../src/ledger/actor.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { currentOwner } from '../../src/platform/owner.js';
import { it } from '../helpers/fixtures.js';
import { printedRule, printedRules } from '../helpers/printed.js';
import { parseVerb, testEnv, type RunResult } from '../helpers/run.js';
import { expectError, expectUsage, run } from './helpers.js';

// `payctl policy`: the team's rules, kept in the ledger. The flag rules through the seam (RunF:
// nothing read or written), then the verbs on a fresh home's own (SQLite) ledger, in process.

const holder = currentOwner().holder;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** The command line breaks a rule of policy add or remove: exit 2, the rule's words, the verb never run. */
async function refused(args: string[], message: string): Promise<void> {
  const result = await parseVerb(['policy', ...args]);
  expect(result.call, result.stderr).toBeUndefined();
  expect(result.stderr).toContain(message);
  expect(result.code).toBe(2);
}

describe('policy add: its flags, read strictly', () => {
  it.for([
    [['--operation', 'refund'], 'give what the rule does: --above <amount>, --daily-limit <amount> or --block'],
    [['--operation', 'refund', '--above', '500', '--block'], 'give one of --above, --daily-limit and --block, not --above and --block'],
    [['--operation', 'refund', '--above', '500', '--daily-limit', '900'], 'not --above and --daily-limit'],
    [['--operation', 'refunds', '--block'], "argument 'refunds' is invalid"],
    [['--operation', 'refund', '--above', '1.500,00'], '--above: "1.500,00" looks like it has a thousands separator'],
    [['--operation', 'refund', '--above', '0'], '--above: "0" is zero'],
    [['--operation', 'refund', '--above', '-5'], '--above: "-5" has a sign'],
    [['--operation', 'refund', '--daily-limit', 'lots'], '--daily-limit: "lots" is not an amount'],
    [['--operation', 'refund', '--above', '500', '--per', 'team'], '--per goes with --daily-limit'],
    [['--operation', 'refund', '--daily-limit', '500', '--per', 'shop'], "argument 'shop' is invalid"],
    [['--operation', 'refund', '--daily-limit', '500', '--per', 'session'], '--per session goes with --actor agent'],
    [['--operation', 'refund', '--daily-limit', '500', '--expires', '48'], '--expires goes with --above'],
    [['--operation', 'refund', '--above', '500', '--expires', '0'], '--expires: "0" is not a number of hours; give a whole number from 1 to 720'],
    [['--operation', 'refund', '--above', '500', '--expires', '721'], 'from 1 to 720'],
    [['--operation', 'refund', '--above', '500', '--expires', '1.5'], '--expires: "1.5"'],
    [['--operation', 'refund', '--above', '500', '--confirm-at-client-up-to', '50'], '--confirm-at-client-up-to goes with --actor agent'],
    [['--operation', 'refund', '--actor', 'script', '--above', '500', '--confirm-at-client-up-to', '50'], '--confirm-at-client-up-to goes with --actor agent'],
    [['--operation', 'refund', '--actor', 'agent', '--above', '100', '--confirm-at-client-up-to', '5,001'], '--confirm-at-client-up-to: "5,001" has more than 2 decimal places'],
    [['--operation', 'refund', '--actor', 'agent', '--above', '100', '--confirm-at-client-up-to', '150'], '--confirm-at-client-up-to is more than --above'],
    [['--operation', 'refund', '--actor', 'agent', '--block', '--confirm-at-client-up-to', '50'], '--confirm-at-client-up-to goes with --above or --daily-limit'],
    [['--operation', 'refund', '--actor', 'agent', '--confirm-at-client-up-to', '50', '--per', 'team'], '--per goes with --daily-limit'],
    [['--operation', 'refund', '--actor', 'ana', '--block'], '--actor: "ana" is not an actor; give any, agent, script, or one operator as user@host'],
    [['--operation', 'refund', '--actor', 'ana@', '--block'], '--actor: "ana@" is not an actor'],
    [['--operation', 'refund', '--actor', 'ana@caixa 2', '--block'], '--actor: "ana@caixa 2" is not an actor'],
    [['--operation', 'refund', '--actor', 'Agent', '--block'], '--actor: "Agent" is not an actor'],
    [['--operation', 'policy', '--above', '500', '--actor', 'script'], '--operation policy goes with --block'],
    [['--operation', 'policy', '--daily-limit', '500', '--actor', 'script'], '--operation policy goes with --block'],
    [['--operation', 'policy', '--block'], '--operation policy --block needs an --actor'],
  ] as const)('%j: exit 2', async ([args, message]) => {
    await refused(['add', ...args], message);
  });

  it('reads amounts as the house does (a decimal comma too), and the rest as given', async () => {
    for (const [args, options] of [
      [['--operation', 'refund', '--above', '500'], { operation: 'refund', above: '500' }],
      [['--operation', 'refund', '--daily-limit', '1500,50', '--per', 'team'], { dailyLimit: '1500,50', per: 'team' }],
      [['--operation', 'capture', '--block', '--actor', 'script'], { block: true, actor: 'script' }],
      [['--operation', 'refund', '--actor', 'ana@caixa-2.loja.internal', '--above', '200.5', '--expires', '720'], { actor: 'ana@caixa-2.loja.internal', expires: '720' }],
      [['--operation', 'refund', '--actor', 'agent', '--above', '100', '--confirm-at-client-up-to', '50,00'], { confirmAtClientUpTo: '50,00' }],
      [['--operation', 'policy', '--block', '--actor', 'script'], { operation: 'policy', block: true }],
      [['--operation', 'refund', '--actor', 'agent', '--confirm-at-client-up-to', '50'], { confirmAtClientUpTo: '50' }],
    ] as const) {
      const result = await parseVerb(['policy', 'add', ...args]);
      expect(result.stderr).toBe('');
      expect(result.call?.options).toMatchObject(options);
    }
    const { ruleOfFlags } = await import('../../src/commands/policy/rule-flags.js');
    expect(ruleOfFlags({ operation: 'refund', dailyLimit: '1500,50' })).toEqual({
      operation: 'refund',
      actor: 'any',
      kind: 'daily_limit',
      amount_cents: 150050,
      per: 'operator',
      expires_hours: null,
      confirm_up_to_cents: null,
    });
    expect(ruleOfFlags({ operation: 'refund', actor: 'agent', above: '100', confirmAtClientUpTo: '50,00', expires: '2' })).toEqual({
      operation: 'refund',
      actor: 'agent',
      kind: 'above',
      amount_cents: 10000,
      per: null,
      expires_hours: 2,
      confirm_up_to_cents: 5000,
    });
    // The contract's agent rule: up to R$ 50,00 the client confirms; above it, a person approves.
    expect(ruleOfFlags({ operation: 'refund', actor: 'agent', confirmAtClientUpTo: '50' })).toMatchObject({ kind: 'above', amount_cents: 5000, confirm_up_to_cents: 5000 });
  });

  it('a missing --operation is asked for on a terminal once the other rules pass; with prompts off it is named (exit 2)', async ({ home }) => {
    const parsed = await parseVerb(['policy', 'add', '--daily-limit', '300']);
    expect(parsed.call?.missing.map((m) => m.name)).toEqual(['--operation']);
    expectUsage(await run(home, ['policy', 'add', '--daily-limit', '300']), 'missing required flag --operation (prompts are off');
    await refused(['add', '--daily-limit', '300', '--block'], 'give one of --above, --daily-limit and --block');
  });

  it('policy remove takes a rule id', async () => {
    await refused(['remove', 'refund'], '<rule-id>: "refund" is not a rule\'s id');
    const result = await parseVerb(['policy', 'remove', 'rule_3k9x2m7q']);
    expect(result.call?.args).toEqual(['rule_3k9x2m7q']);
  });
});

/** The ledger of a home's account, opened as a command opens it, for what another operator would do to it. */
async function ledgerIn(home: string): Promise<{ ledger: Ledger; close: () => Promise<void> }> {
  const io: IO = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, env: testEnv(home) };
  const factory = new Factory(io, parseGlobals({}));
  const { ledger } = await factory.moneyGuard();
  return { ledger, close: () => factory.close() };
}

const bruno: Actor = { holder: 'bruno@caixa-2', name: 'Bruno Lima', kind: 'person' };

/**
 * Exit 13: the change waits for approval. The error names the request; stdout (not a terminal)
 * is the request itself, for a script to keep its id. Returns the error line and the request's id.
 */
function expectWaiting(result: RunResult, ...fragments: string[]): { line: string; id: string } {
  expect(result.code, result.stderr).toBe(13);
  const line = lastLine(result.stderr);
  expect(line.startsWith('error: '), result.stderr).toBe(true);
  for (const fragment of fragments) expect(line).toContain(fragment);
  const request = JSON.parse(result.stdout) as { id: string; operation: string; state: string; expires_at: string };
  expect(request).toMatchObject({ operation: 'policy', state: 'pending', expires_at: expect.stringMatching(ISO) });
  expect(line).toContain(`waits as request ${request.id} (payctl approvals show ${request.id})`);
  return { line, id: request.id };
}
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) as string;
const rulesIn = (result: RunResult) => z.parse(printedRules, JSON.parse(result.stdout));

describe('policy add, list and remove on this machine\'s own ledger', () => {
  it('no rules: an empty list, and says so', async ({ home }) => {
    const none = await run(home, ['policy', 'list']);
    expect([none.code, none.stdout]).toEqual([0, '[]\n']);
    expect(none.stderr).toContain('no rules in the ledger');
  });

  it('a new rule, or a lower limit, takes effect at once; list shows each in words, who set it and when', async ({ home }) => {
    expect((await run(home, ['config', 'set', 'operator_name', 'Ana Souza'])).code).toBe(0);
    const added = await run(home, ['policy', 'add', '--operation', 'refund', '--daily-limit', '2000']);
    expect(added.code, added.stderr).toBe(0);
    const rule = z.parse(printedRule, JSON.parse(added.stdout));
    expect(rule).toMatchObject({ state: 'active', rule: 'refunds by anyone: at most R$ 2.000,00 a day for each operator', kind: 'daily_limit', amount: '2000.00', per: 'operator', set_by: holder, set_by_name: 'Ana Souza', approved_by: null });
    expect(added.stderr).toBe(`Rule ${rule.id} is in force now, set by Ana Souza (${holder}): refunds by anyone: at most R$ 2.000,00 a day for each operator.\n`);
    expect((await run(home, ['policy', 'add', '--operation', 'capture', '--block', '--actor', 'script'])).code).toBe(0);

    const lower = await run(home, ['policy', 'add', '--operation', 'refund', '--daily-limit', '1500,50']);
    expect(lower.code, lower.stderr).toBe(0);
    expect(lower.stderr).toContain(`It replaces rule ${rule.id} (refunds by anyone: at most R$ 2.000,00 a day for each operator)`);
    const listed = rulesIn(await run(home, ['policy', 'list']));
    expect(listed.map((r) => [r.rule, r.state])).toEqual([
      ['captures by scripts (prompts off) are blocked', 'active'],
      ['refunds by anyone: at most R$ 1.500,50 a day for each operator', 'active'],
    ]);
    expect(listed[0]).toMatchObject({ set_by: holder, set_at: expect.stringMatching(ISO), approved_by: null, change: null });
    // --all: the replaced rule too, and who replaced it.
    const all = rulesIn(await run(home, ['policy', 'list', '--all']));
    expect(all.find((r) => r.id === rule.id)).toMatchObject({ state: 'removed', removed_by: holder, removed_at: expect.stringMatching(ISO) });
    // The same rule again changes nothing.
    const again = await run(home, ['policy', 'add', '--operation', 'capture', '--block', '--actor', 'script']);
    expect([again.code, again.stderr]).toEqual([0, `Rule ${listed[0]!.id} already says this; nothing changed.\n`]);

    // A table on a terminal, CSV with -o csv, like every list.
    const table = await run(home, ['policy', 'list', '--no-color'], { tty: true, columns: 160 });
    const [header, first] = table.stdout.split('\n');
    expect(header).toMatch(/^ID +RULE +STATE +SET +SET BY +APPROVED BY$/);
    expect(first).toMatch(new RegExp(`^rule_\\w{8}  captures by scripts \\(prompts off\\) are blocked +active +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d  Ana Souza \\(${holder}\\)  in force at once$`));
    expect(table.stdout.trimEnd().split('\n').at(-1)).toBe('times in UTC');
    // At 80 columns a rule in words is never cut: the names give way, then each row is a block.
    const narrow = await run(home, ['policy', 'list', '--no-color'], { tty: true, columns: 80 });
    expect(narrow.stdout).toContain('\nRULE         refunds by anyone: at most R$ 1.500,50 a day for each operator\n');
    const csv = await run(home, ['policy', 'list', '-o', 'csv']);
    expect(csv.stdout.split('\n')[0]).toBe('id,state,rule,operation,actor,kind,amount,per,expires_hours,confirm_at_client_up_to,set_by,set_by_name,set_at,approved_by,approved_by_name,approved_at,removed_by,removed_by_name,removed_at,change,changes_rule,expires_at');
  });

  it('a loosening change waits for another operator (exit 13), the old rule still in force; approved, it lands with who approved it', async ({ home }) => {
    const limit = z.parse(printedRule, JSON.parse((await run(home, ['policy', 'add', '--operation', 'refund', '--daily-limit', '2000'])).stdout));
    const block = z.parse(printedRule, JSON.parse((await run(home, ['policy', 'add', '--operation', 'capture', '--block', '--actor', 'script'])).stdout));

    const raised = await run(home, ['policy', 'add', '--operation', 'refund', '--daily-limit', '5000']);
    const { line, id: raise } = expectWaiting(
      raised,
      `the rule "refunds by anyone: at most R$ 5.000,00 a day for each operator" in place of rule ${limit.id} (refunds by anyone: at most R$ 2.000,00 a day for each operator) loosens the team's rules, so another operator approves it: it waits as request apr_`,
    );
    expect(line).toContain(`(payctl approvals show ${raise}); rule ${limit.id} stays in force until then. On this machine's own ledger (`);
    expect(line).toContain('only the person at its terminal may loosen the rules: run it there, not from a script or an agent');
    const { id: remove } = expectWaiting(await run(home, ['policy', 'remove', block.id]), `removing rule ${block.id} (captures by scripts (prompts off) are blocked) loosens the team's rules`);
    // Asked again, the same request is named, not a second one.
    expectWaiting(await run(home, ['policy', 'remove', block.id]), `it already waits as request ${remove}`);
    // On a terminal, the message alone.
    const onTerminal = await run(home, ['policy', 'remove', block.id], { tty: true, notTty: 'stdin' });
    expect([onTerminal.code, onTerminal.stdout]).toEqual([13, '']);

    // The rules in force are as they were; the two changes wait beneath them.
    const listed = rulesIn(await run(home, ['policy', 'list']));
    expect(listed.map((r) => [r.id, r.state, r.change, r.changes_rule, r.amount])).toEqual([
      [limit.id, 'active', null, null, '2000.00'],
      [block.id, 'active', null, null, null],
      [raise, 'pending', 'add', limit.id, '5000.00'],
      [remove, 'pending', 'remove', block.id, null],
    ]);
    expect(listed[2]).toMatchObject({ set_by: holder, expires_at: expect.stringMatching(ISO) });
    const { ledger, close } = await ledgerIn(home);
    try {
      const waiting = await ledger.policy.request(raise, ledger.now());
      expect(waiting).toMatchObject({ operation: 'policy', state: 'pending', requester: holder, requester_kind: 'script', rule_id: limit.id, change: { action: 'add', replaces: limit.id, rule: { amount_cents: 500_000 } } });
      expect(waiting!.expires_at - waiting!.created_at).toBe(24 * 3_600_000);
      expect((await ledger.policy.rules()).map((r) => r.id)).toEqual([limit.id, block.id]);

      // Another operator approves the raise: the new limit is in force, set by the requester, approved by the other.
      expect((await ledger.policy.approve(raise, bruno, ledger.now())).ok).toBe(true);
    } finally {
      await close();
    }
    const after = rulesIn(await run(home, ['policy', 'list']));
    expect(after.map((r) => [r.rule, r.state])).toEqual([
      ['captures by scripts (prompts off) are blocked', 'active'],
      ['refunds by anyone: at most R$ 5.000,00 a day for each operator', 'active'],
      [`captures by scripts (prompts off) are blocked`, 'pending'],
    ]);
    expect(after[1]).toMatchObject({ set_by: holder, approved_by: 'bruno@caixa-2', approved_by_name: 'Bruno Lima', approved_at: expect.stringMatching(ISO) });
    const table = await run(home, ['policy', 'list', '--no-color'], { tty: true, columns: 200 });
    expect(table.stdout).toMatch(/R\$ 5\.000,00 a day for each operator +active +[\d-]+ [\d:]+  \S+  Bruno Lima \(bruno@caixa-2\)\n/);
    expect(table.stdout).toMatch(new RegExp(`${remove} +remove ${block.id}: captures by scripts \\(prompts off\\) are blocked +pending +[\\d-]+ [\\d:]+  ${holder}  waiting\n`));
    expect(table.stderr).toContain("1 change of the rules waits for another operator's approval");
  });

  it('on this machine\'s own ledger the person at its terminal loosens the rules alone, once asked; a script with --yes still waits', async ({ home }) => {
    const limit = z.parse(printedRule, JSON.parse((await run(home, ['policy', 'add', '--operation', 'refund', '--daily-limit', '2000'])).stdout));
    expectWaiting(await run(home, ['policy', 'add', '--operation', 'refund', '--daily-limit', '5000', '--yes']), `in place of rule ${limit.id}`);
    const raised = await run(home, ['policy', 'add', '--operation', 'refund', '--daily-limit', '5000', '--yes', '--no-color'], { tty: true, columns: 200 });
    expect(raised.code, raised.stderr).toBe(0);
    expect(raised.stderr.replace(/\s+/g, ' ')).toMatch(new RegExp(`^Rule rule_\\w{8} is in force now: refunds by anyone: at most R\\$ 5\\.000,00 a day for each operator\\. It replaces rule ${limit.id} \\(.*\\), by ${holder} alone \\(this machine's own ledger\\); apr_\\w{8} denied\\. $`));
    const removed = await run(home, ['policy', 'remove', rulesIn(await run(home, ['policy', 'list']))[0]!.id, '--yes'], { tty: true });
    expect([removed.code, removed.stderr.replace(/\s+/g, ' ')], removed.stderr).toEqual([0, expect.stringContaining(`is removed, by ${holder} alone (this machine's own ledger).`)]);
    expect(rulesIn(await run(home, ['policy', 'list']))).toEqual([]);
  });

  it("letting agents act on a client's confirmation loosens the rules; a longer wait for a decision too", async ({ home }) => {
    const agents = z.parse(printedRule, JSON.parse((await run(home, ['policy', 'add', '--operation', 'refund', '--actor', 'agent', '--above', '100'])).stdout));
    expectWaiting(
      await run(home, ['policy', 'add', '--operation', 'refund', '--actor', 'agent', '--above', '100', '--confirm-at-client-up-to', '50']),
      `the rule "refunds above R$ 100,00 by AI agents need approval; up to R$ 50,00 the person at the agent's client confirms instead" in place of rule ${agents.id}`,
    );
    expectWaiting(await run(home, ['policy', 'add', '--operation', 'refund', '--actor', 'agent', '--above', '100', '--expires', '48']), `in place of rule ${agents.id}`);
    // A shorter wait, or a lower amount, tightens.
    const shorter = await run(home, ['policy', 'add', '--operation', 'refund', '--actor', 'agent', '--above', '80', '--expires', '2']);
    expect(shorter.code, shorter.stderr).toBe(0);
    expect(rulesIn(await run(home, ['policy', 'list'])).filter((r) => r.state === 'active').map((r) => [r.amount, r.expires_hours])).toEqual([['80.00', 2]]);
  });

  it('a tightening change that replaces a rule denies the requests to change it: approved, they would add a rule beside it', async ({ home }) => {
    const limit = z.parse(printedRule, JSON.parse((await run(home, ['policy', 'add', '--operation', 'refund', '--daily-limit', '2000'])).stdout));
    const { id: raise } = expectWaiting(await run(home, ['policy', 'add', '--operation', 'refund', '--daily-limit', '5000']));
    const lower = await run(home, ['policy', 'add', '--operation', 'refund', '--daily-limit', '1000']);
    expect(lower.code, lower.stderr).toBe(0);
    expect(lower.stderr).toContain(`; ${raise}, which asked to change that rule, was denied.`);
    const { ledger, close } = await ledgerIn(home);
    try {
      const denied = await ledger.policy.request(raise, ledger.now());
      expect(denied).toMatchObject({ state: 'denied', reason: expect.stringContaining(`rule ${limit.id} was replaced meanwhile by rule rule_`) });
      expect((await ledger.policy.approve(raise, bruno, ledger.now())).ok).toBe(false);
      expect((await ledger.policy.rules()).map((r) => r.amount_cents)).toEqual([100_000]);
    } finally {
      await close();
    }
  });

  it('four eyes need a shared ledger: a rule for one operator, or --above for anyone but agents, is refused here (exit 2), nothing written', async ({ home }) => {
    expectUsage(
      await run(home, ['policy', 'add', '--operation', 'refund', '--above', '500']),
      'a rule that waits for a second person (--above) needs a ledger the team shares: four eyes need two people on one ledger',
      "is this machine's own. Share one first (payctl config set ledger_url postgres://…, on every operator's machine)",
      'Nothing was changed',
    );
    expectUsage(await run(home, ['policy', 'add', '--operation', 'refund', '--actor', 'ana@caixa-2', '--daily-limit', '300']), 'a rule for one operator (ana@caixa-2) needs a ledger the team shares');
    expectUsage(await run(home, ['policy', 'add', '--operation', 'capture', '--actor', 'script', '--above', '300']), '--above');
    expect((await run(home, ['policy', 'list'])).stdout).toBe('[]\n');
    // An agent's request is approved by a person at a terminal of the same machine.
    const agents = await run(home, ['policy', 'add', '--operation', 'refund', '--actor', 'agent', '--above', '100', '--expires', '2']);
    expect(agents.code, agents.stderr).toBe(0);
    expect(JSON.parse(agents.stdout)).toMatchObject({ rule: 'refunds above R$ 100,00 by AI agents need approval (requests wait 2 h)', actor: 'agent', amount: '100.00', expires_hours: 2 });
  });

  it('--dry-run says what a change would do, and changes nothing', async ({ home }) => {
    const first = await run(home, ['policy', 'add', '--operation', 'refund', '--daily-limit', '2000', '--dry-run']);
    expect(first).toEqual({ code: 0, stdout: '', stderr: 'dry run: Add the rule "refunds by anyone: at most R$ 2.000,00 a day for each operator" would be in force at once; nothing was changed\n' });
    expect((await run(home, ['policy', 'list'])).stdout).toBe('[]\n');
    const rule = z.parse(printedRule, JSON.parse((await run(home, ['policy', 'add', '--operation', 'refund', '--daily-limit', '2000'])).stdout));
    const remove = await run(home, ['policy', 'remove', rule.id, '--dry-run']);
    expect(remove.code, remove.stderr).toBe(0);
    expect(remove.stderr).toContain(`dry run: Remove rule ${rule.id} (refunds by anyone: at most R$ 2.000,00 a day for each operator) would wait for another operator's approval (exit 13); nothing was changed`);
    expect(rulesIn(await run(home, ['policy', 'list'])).map((r) => r.id)).toEqual([rule.id]);
  });

  it('an agent never changes the rules (exit 4), but may read them', async ({ home }) => {
    expect((await run(home, ['policy', 'add', '--operation', 'refund', '--daily-limit', '2000'])).code).toBe(0);
    for (const env of [{ PAYCTL_ACTOR: 'agent' }, { CLAUDECODE: '1' }]) {
      const refused = await run(home, ['policy', 'add', '--operation', 'refund', '--daily-limit', '1000'], { env });
      expectError(refused, 4, "an agent may not change the team's rules", 'Nothing was changed');
      expectError(await run(home, ['policy', 'remove', 'rule_aaaaaaaa'], { env }), 4, "an agent may not change the team's rules");
      expect(rulesIn(await run(home, ['policy', 'list'], { env })).map((r) => r.amount)).toEqual(['2000.00']);
    }
  });

  it('a rule change is a move of operation policy: blocked for scripts, a script changes nothing (exit 4); a person at a terminal still may', async ({ home }) => {
    expect((await run(home, ['policy', 'add', '--operation', 'policy', '--block', '--actor', 'script'])).code).toBe(0);
    const blocked = await run(home, ['policy', 'add', '--operation', 'refund', '--daily-limit', '500']);
    expectError(blocked, 4, "not permitted by the team's policy: rule rule_", '(changes of the rules by scripts (prompts off) are blocked); nothing was changed');
    const person = await run(home, ['policy', 'add', '--operation', 'refund', '--daily-limit', '500', '-o', 'json'], { tty: true });
    expect(person.code, person.stderr).toBe(0);
    expect(rulesIn(await run(home, ['policy', 'list'])).map((r) => r.operation)).toEqual(['policy', 'refund']);
  });

  it('remove: a rule the ledger does not have is named (exit 2); one already removed changes nothing', async ({ home }) => {
    expectUsage(await run(home, ['policy', 'remove', 'rule_aaaaaaaa']), 'has no rule rule_aaaaaaaa; payctl policy list --all shows its rules');
    const first = z.parse(printedRule, JSON.parse((await run(home, ['policy', 'add', '--operation', 'refund', '--daily-limit', '2000'])).stdout));
    expect((await run(home, ['policy', 'add', '--operation', 'refund', '--daily-limit', '1000'])).code).toBe(0);
    expect(await run(home, ['policy', 'remove', first.id])).toEqual({ code: 0, stdout: '', stderr: `Rule ${first.id} was already removed; nothing changed.\n` });
  });
});
