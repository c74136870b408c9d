import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect } from 'vitest';
import * as z from 'zod/mini';
import { Factory } from '../../src/factory.js';
import { parseGlobals } from '../../src/globals.js';
import { actorOf } from '../../src/ledger/actor.js';
import { currentOwner } from '../../src/platform/owner.js';
import { it } from '../helpers/fixtures.js';
import { ledgerList, ledgerShown } from '../helpers/printed.js';
import { testEnv } from '../helpers/run.js';
import { createCard, expectJson, expectUsage, run } from './helpers.js';

// Who is who: the operator is the OS `user@host` the ledger always recorded, with the display
// name the profile gives (operator_name), on every intent; and what kind of actor runs payctl.
const holder = currentOwner().holder;

describe('config set operator_name', () => {
  it('is kept per profile, trimmed, and read back as set', async ({ home }) => {
    const set = await run(home, ['config', 'set', 'operator_name', '  Ana Souza ']);
    expect([set.code, set.stdout, set.stderr]).toEqual([0, '', 'Set operator_name = Ana Souza in profile "sandbox"\n']);
    expect(await run(home, ['config', 'get', 'operator_name'])).toEqual({ code: 0, stdout: 'Ana Souza\n', stderr: '' });
    // Another profile has its own (none yet).
    const other = await run(home, ['--profile', 'other', 'config', 'set', 'base_url', 'embedded']);
    expect(other.code, other.stderr).toBe(0);
    expect(await run(home, ['--profile', 'other', 'config', 'get', 'operator_name'])).toEqual({ code: 0, stdout: '', stderr: 'operator_name is not set in profile "other"\n' });
    // Accents and other scripts are names too.
    expect((await run(home, ['config', 'set', 'operator_name', 'João Conceição'])).code).toBe(0);
    expect(JSON.parse((await run(home, ['config', 'list'])).stdout)).toMatchObject({ profile: 'sandbox', operator_name: 'João Conceição' });
  });

  it.for([
    ['', 'operator_name: is empty'],
    ['   ', 'operator_name: is empty'],
    ['Ana\nSouza', 'operator_name: holds a control character'],
    ['Ana\tSouza', 'operator_name: holds a control character'],
    ['Ana \x1b]0;pwned\x07Souza', 'operator_name: holds a control character'],
    ['Ana \u202eazuoS', 'operator_name: holds a control character'],
    ['A'.repeat(65), 'operator_name: is longer than 64 characters'],
  ])('refuses %j (exit 2, nothing written)', async ([value, message], { home }) => {
    expectUsage(await run(home, ['config', 'set', 'operator_name', value as string]), message as string, 'such as "Ana Souza"');
    expect(await run(home, ['config', 'get', 'operator_name'])).toMatchObject({ code: 0, stdout: '' });
  });

  it('a name edited into the file that cannot be shown stops the command, naming the profile', async ({ home }) => {
    writeFileSync(join(home, 'config.json'), JSON.stringify({ profiles: { sandbox: { operator_name: 'Ana\u001b[2JSouza' } } }));
    expectUsage(await run(home, ['transactions', 'list']), 'profile "sandbox" operator_name: holds a control character');
  });
});

describe('the ledger records who moved money', () => {
  it('a refund records holder and name; ledger list and show give them in tables, JSON and CSV', async ({ home }) => {
    const unnamed = await createCard(home, '10.00');
    expect((await run(home, ['config', 'set', 'operator_name', 'Ana Souza'])).code).toBe(0);
    const sale = await createCard(home, '10.00');
    const refund = await run(home, ['transactions', 'refund', sale.id, '--amount', '2.50', '--yes']);
    expect(refund.code, refund.stderr).toBe(0);

    const listed = z.parse(ledgerList, JSON.parse((await run(home, ['ledger', 'list'])).stdout));
    expect(listed.map((i) => [i.action, i.target === sale.id || i.action === 'create', i.holder, i.operator_name])).toEqual([
      ['refund', true, holder, 'Ana Souza'],
      ['create', true, holder, 'Ana Souza'],
      // Before the name was set: the holder alone.
      ['create', true, holder, null],
    ]);
    expect(listed[0]).not.toHaveProperty('who');

    const table = await run(home, ['ledger', 'list', '--no-color'], { tty: true, columns: 200 });
    expect(table.code, table.stderr).toBe(0);
    const [header, first, , third] = table.stdout.split('\n');
    expect(header).toMatch(/^WHEN +WHAT +ON +AMOUNT +STATE +WHO +BATCH/);
    expect(first).toMatch(new RegExp(`  refund  ${sale.id} +R\\$ 2,50  applied +Ana Souza \\(${holder}\\)$`));
    expect(third).toMatch(new RegExp(`  create  .* applied +${holder}$`));

    const csv = await run(home, ['ledger', 'list', '-o', 'csv']);
    const [head, row] = csv.stdout.split('\n');
    expect(head?.split(',').slice(0, 5)).toEqual(['id', 'created_at', 'holder', 'operator_name', 'pid']);
    expect(row).toContain(`,${holder},Ana Souza,`);

    const shown = z.parse(ledgerShown, JSON.parse((await run(home, ['ledger', 'show', sale.id])).stdout));
    expect(shown.intents.map((i) => [i.action, i.holder, i.operator_name])).toEqual([['refund', holder, 'Ana Souza']]);
    const shownTable = await run(home, ['ledger', 'show', sale.id, '--no-color'], { tty: true, columns: 200 });
    expect(shownTable.stdout.split('\n')[1]).toContain(`Ana Souza (${holder})`);
    expect(unnamed.id).not.toBe(sale.id);
  });

  it('a bulk run records the name on each row it sends', async ({ home }) => {
    const [a, b] = [await createCard(home, '10.00'), await createCard(home, '10.00')];
    expect((await run(home, ['config', 'set', 'operator_name', 'Bia Lima'])).code).toBe(0);
    const bulk = await run(home, ['transactions', 'refund', '--file', '-', '--yes'], { stdin: `id,amount\n${a.id},1.00\n${b.id},2.00\n` });
    expect(bulk.code, bulk.stderr).toBe(0);
    const listed = z.parse(ledgerList, JSON.parse((await run(home, ['ledger', 'list', '--state', 'applied'])).stdout));
    const refunds = listed.filter((i) => i.action === 'refund');
    expect(refunds.map((i) => [i.amount, i.batch, i.holder, i.operator_name]).sort()).toEqual([
      ['1.00', 'standard input', holder, 'Bia Lima'],
      ['2.00', 'standard input', holder, 'Bia Lima'],
    ]);
  });
});

describe('the actor', () => {
  const factory = (home: string, env: Record<string, string>, tty: boolean, raw: Record<string, unknown> = {}) =>
    new Factory({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), stdinIsTTY: tty, stdoutIsTTY: tty, stderrIsTTY: tty, env: testEnv(home, env) }, parseGlobals(raw));

  it('a person at a terminal, a script with prompts off or --no-input, an agent whatever the terminal', async ({ home }) => {
    expect((await run(home, ['config', 'set', 'operator_name', 'Ana Souza'])).code).toBe(0);
    expect(await factory(home, {}, true).actor()).toEqual({ holder, name: 'Ana Souza', kind: 'person' });
    expect(await factory(home, {}, false).actor()).toEqual({ holder, name: 'Ana Souza', kind: 'script' });
    expect(await factory(home, {}, true, { input: false }).actor()).toMatchObject({ kind: 'script' });
    expect(await factory(home, { CLAUDECODE: '1' }, true).actor()).toEqual({ holder, name: 'Ana Souza', kind: 'agent', signal: 'CLAUDECODE is set' });
    expect(await factory(home, { PAYCTL_ACTOR: 'agent' }, false).actor()).toMatchObject({ kind: 'agent', signal: 'PAYCTL_ACTOR=agent' });
  });

  it('whoami says who acts: user@host, operator_name and the kind of actor', async ({ home }) => {
    expect(expectJson(await run(home, ['whoami']))).toMatchObject({ operator: holder, operator_name: null, actor: 'script' });
    expect((await run(home, ['config', 'set', 'operator_name', 'Ana Souza'])).code).toBe(0);
    expect(expectJson(await run(home, ['whoami'], { env: { CURSOR_AGENT: '1' } }))).toMatchObject({ operator: holder, operator_name: 'Ana Souza', actor: 'agent' });
    const table = await run(home, ['whoami', '--no-color'], { tty: true, columns: 120 });
    expect(table.stdout).toMatch(/^operator_name +Ana Souza$/m);
    expect(table.stdout).toMatch(/^actor +person$/m);
  });

  it('without operator_name it is the holder alone', () => {
    expect(actorOf({}, false)).toEqual({ holder, kind: 'person' });
    expect(actorOf({ CODEX_SANDBOX: 'seatbelt' }, true)).toEqual({ holder, kind: 'agent', signal: 'CODEX_SANDBOX is set' });
  });
});
