import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { currentOwner } from '../../src/platform/owner.js';
import { approvalStatus, waitingRequest } from '../helpers/printed.js';
import { freshDatabase, postgresForFile } from '../helpers/postgres.js';
import { tempHome, testEnv } from '../helpers/run.js';
import { BIN, eventually, servedSandboxForBlock, spawnPayctl } from '../helpers/serve.js';
import { createCard, getTx, run } from './helpers.js';
import { requestRefund, requestRuleRemoval, rulesOf } from './approvals-helpers.js';
import { addRule } from '../helpers/policy.js';
import type { Transaction } from '../../src/sandbox/types.js';

// Four eyes across machines: a team's ledger on a real PostgreSQL server (started for this file),
// the requester on this machine as this OS user, approvers on other machines (UTS namespaces of
// their own, named caixa-2 and caixa-3) and, when the tests run as root (here and in CI), as another
// OS user: the unprivileged user PostgreSQL runs as. Approving needs a terminal: each approver runs
// under script(1), and the amount is typed when the question shows. Every case checks the
// sandbox's sale: refunded once, or not at all.
const postgres = postgresForFile();
const voids = (tx: Transaction) => tx.history.filter((h) => h.operation_type === 'void' && h.status === 'succeeded').length;
const me = currentOwner().holder;
const user = me.split('@')[0] as string;
const ROOT = process.getuid?.() === 0;

/** The other OS user an approver runs as, when this runs as root: the one PostgreSQL runs as. */
const otherUser = ROOT ? (['postgres', 'nobody'] as const).map(idsOf).find((ids) => ids !== undefined) : undefined;
function idsOf(name: string): { name: string; uid: number; gid: number } | undefined {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { name, uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
}

/** A home the other user can use: theirs, all the way down. */
function giveAway(path: string): void {
  if (!otherUser) return;
  chownSync(path, otherUser.uid, otherUser.gid);
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.isDirectory()) giveAway(join(path, entry.name));
    else chownSync(join(path, entry.name), otherUser.uid, otherUser.gid);
  }
}

/**
 * bin/payctl.js as the other user can run it. A checkout the other user cannot reach (one under a
 * directory of mode 0700, as a fresh `mktemp -d` clone is) is mirrored into a directory it can:
 * hard links where one file system allows (nothing copied), else a copy of what payctl runs from.
 */
let otherBin = BIN;
let mirror: string | undefined;
beforeAll(() => {
  if (!otherUser) return;
  const asOther = ['setpriv', `--reuid=${otherUser.uid}`, `--regid=${otherUser.gid}`, '--init-groups', '--'];
  const reaches = (file: string) => {
    try {
      execFileSync(asOther[0]!, [...asOther.slice(1), 'test', '-r', file], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  if (reaches(BIN)) return;
  const root = dirname(dirname(BIN));
  mirror = mkdtempSync(join(tmpdir(), 'payctl-checkout-'));
  chmodSync(mirror, 0o755);
  const parts = ['bin', 'dist', 'node_modules', 'package.json'].map((part) => join(root, part));
  try {
    execFileSync('cp', ['-al', ...parts, mirror], { stdio: 'ignore' });
  } catch {
    execFileSync('cp', ['-a', ...parts, mirror], { stdio: 'ignore' });
  }
  otherBin = join(mirror, 'bin', 'payctl.js');
  if (!reaches(otherBin)) throw new Error(`${otherUser.name} cannot read ${otherBin}: the approver that runs as another OS user cannot start`);
}, 120_000);
afterAll(() => {
  if (mirror) rmSync(mirror, { recursive: true, force: true });
});

interface Operator {
  home: string;
  hostname: string;
  /** Runs as the other OS user (as root only). */
  other: boolean;
}

interface Terminal {
  screen(): string;
  /** Whether the terminal came to show `pattern` (false: the command ended without it). */
  shows(pattern: RegExp): Promise<boolean>;
  type(keys: string): void;
  exited: Promise<number | null>;
}

const shellWord = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** `payctl <args>` on a pseudo-terminal (script(1)) on the operator's machine, as the operator's OS user. */
function onTerminal(operator: Operator, args: string[], env: Record<string, string>): Terminal {
  const command = [process.execPath, operator.other && otherUser ? otherBin : BIN, ...args, '--no-color'].map(shellWord).join(' ');
  const inTerminal = ['script', '-qfec', command, '/dev/null'];
  const asUser = operator.other && otherUser ? ['setpriv', `--reuid=${otherUser.uid}`, `--regid=${otherUser.gid}`, '--init-groups', '--', ...inTerminal] : inTerminal;
  // Another machine: a UTS namespace with its own hostname (unprivileged, a user namespace lets it set one).
  const onMachine = operator.hostname === me.split('@')[1] ? asUser : ['unshare', '--uts', ...(ROOT ? [] : ['--map-root-user']), 'sh', '-c', 'hostname "$0" && exec "$@"', operator.hostname, ...asUser];
  const child = spawn(onMachine[0]!, onMachine.slice(1), { env: { ...testEnv(operator.home, env), TERM: 'xterm', COLUMNS: '200' } });
  let screen = '';
  child.stdout.on('data', (d: Buffer) => (screen += d.toString()));
  child.stderr.on('data', (d: Buffer) => (screen += d.toString()));
  const plain = () => screen.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
  let ended = false;
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code))).finally(() => (ended = true));
  return {
    screen: plain,
    shows: async (pattern) => {
      await eventually(() => ended || pattern.test(plain()), 20_000, `${pattern} on ${operator.hostname}'s terminal; it shows:\n${plain()}`);
      // The question draws itself before it listens for keys.
      await new Promise((resolve) => setTimeout(resolve, 100));
      return pattern.test(plain());
    },
    type: (keys) => void child.stdin.write(keys),
    exited,
  };
}

let homes: Array<{ home: string; cleanup: () => void }> = [];
let ledger: string;
beforeEach(async () => {
  homes = [tempHome(), tempHome(), tempHome()];
  giveAway(homes[1]!.home);
  ledger = await freshDatabase(postgres());
});
afterEach(() => {
  for (const home of homes) home.cleanup();
});
/** The requester: this machine, this OS user. */
const here = () => homes[0]!.home;
/** An approver on caixa-2, as the other OS user (when root). */
const bia = (): Operator => ({ home: homes[1]!.home, hostname: 'caixa-2', other: true });
/** Another approver, on caixa-3, as this OS user. */
const caio = (): Operator => ({ home: homes[2]!.home, hostname: 'caixa-3', other: false });
/** The requester at a terminal of this same machine (its own UTS namespace, this machine's hostname). */
const ana = (): Operator => ({ home: here(), hostname: me.split('@')[1] as string, other: false });
const holderOf = (operator: Operator) => `${operator.other && otherUser ? otherUser.name : user}@${operator.hostname}`;

describe('approvals on a shared ledger', () => {
  const served = servedSandboxForBlock();
  const env = () => ({ ...served().env, PAYCTL_LEDGER_URL: ledger });
  const status = async (home: string, id: string) => z.parse(approvalStatus, JSON.parse((await run(home, ['approvals', 'status', id, '-o', 'json'], { env: env() })).stdout));

  /** Approves on a terminal, typing `typed` when the amount is asked; the exit code and what the terminal showed. */
  async function approve(operator: Operator, id: string, typed: string): Promise<{ code: number | null; screen: string }> {
    const terminal = onTerminal(operator, ['approvals', 'approve', id], env());
    if (await terminal.shows(/Type the amount/)) terminal.type(`${typed}\r`);
    return { code: await terminal.exited, screen: terminal.screen() };
  }

  it('a refund above the rule waits (exit 13, nothing sent); its requester cannot approve it; another operator on another machine sends it once', async () => {
    const sale = await createCard(served().home, '1000.00');
    const rule = await addRule(here(), { kind: 'above', amount_cents: 50_000 }, env());
    const asked = await run(here(), ['transactions', 'refund', sale.id, '--amount', '600.00', '--yes'], { env: env() });
    expect(asked.code, asked.stderr).toBe(13);
    expect(asked.stderr).toContain(`(rule ${rule}: refunds above R$ 500,00 by anyone need approval); nothing was sent`);
    const request = z.parse(waitingRequest, JSON.parse(asked.stdout));
    expect((await getTx(served().home, sale.id)).amount).toBe('1000.00');

    const own = await approve(ana(), request.id, '600,00');
    expect(own.code, own.screen).toBe(4);
    expect(own.screen).toContain(`you (${me}) asked for request ${request.id}: another operator must approve it`);

    const other = await approve(bia(), request.id, '600,00');
    expect(other.code, other.screen).toBe(0);
    expect(other.screen).toMatch(/Refunded R\$ 600,00 of transaction/);
    expect(other.screen).toContain(`Request ${request.id} approved by you and sent`);
    const tx = await getTx(served().home, sale.id);
    expect([tx.amount, voids(tx)]).toEqual(['400.00', 1]);
    expect(await status(here(), request.id)).toMatchObject({ state: 'sent', decided_by: holderOf(bia()), intent_id: expect.any(Number) });

    // Sent: approving again sends nothing.
    const again = await approve(caio(), request.id, '600,00');
    expect(again.code, again.screen).toBe(4);
    expect(again.screen).toContain(`was already approved by ${holderOf(bia())}`);
    expect(voids(await getTx(served().home, sale.id))).toBe(1);
  }, 60_000);

  it("the requester's --wait reports the approver's send: exit 0, the sale as the refund prints it", async () => {
    const sale = await createCard(served().home, '1000.00');
    await addRule(here(), { kind: 'above', amount_cents: 50_000 }, env());
    const waiting = spawnPayctl(['transactions', 'refund', sale.id, '--amount', '600.00', '--yes', '--wait'], here(), env());
    await eventually(() => /waiting for a decision on request apr_\w+/.test(waiting.stderr()), 20_000, 'the requester to wait');
    const id = /request (apr_\w+)/.exec(waiting.stderr())![1]!;
    const approved = await approve(bia(), id, '600,00');
    expect(approved.code, approved.screen).toBe(0);
    expect(await waiting.exited, waiting.stderr()).toBe(0);
    expect(JSON.parse(waiting.stdout())).toMatchObject({ id: sale.id, amount: '400.00' });
    expect(voids(await getTx(served().home, sale.id))).toBe(1);
  }, 60_000);

  it('two approvers at once: one sends it, the other is told who took it; one void', async () => {
    const sale = await createCard(served().home, '1000.00');
    const request = await requestRefund(here(), env(), sale.id, 60_000);
    const terminals = [onTerminal(bia(), ['approvals', 'approve', request.id], env()), onTerminal(caio(), ['approvals', 'approve', request.id], env())];
    expect(await Promise.all(terminals.map((t) => t.shows(/Type the amount/)))).toEqual([true, true]);
    for (const terminal of terminals) terminal.type('600,00\r');
    const codes = await Promise.all(terminals.map((t) => t.exited));
    const shown = terminals.map((t) => t.screen()).join('\n----\n');
    expect(codes.slice().sort(), shown).toEqual([0, 4]);
    const loser = terminals[codes.indexOf(4)]!;
    const winner = codes.indexOf(0) === 0 ? bia() : caio();
    expect(loser.screen()).toContain(`was already approved by ${holderOf(winner)}`);
    expect(loser.screen()).toContain('nothing was sent by you');
    const tx = await getTx(served().home, sale.id);
    expect([tx.amount, voids(tx)]).toEqual(['400.00', 1]);
    expect(await status(here(), request.id)).toMatchObject({ state: 'sent', decided_by: holderOf(winner) });
  }, 60_000);

  it('denied: nothing sent, the reason kept; it can no longer be approved', async () => {
    const sale = await createCard(served().home, '1000.00');
    const request = await requestRefund(here(), env(), sale.id, 60_000);
    const own = await run(here(), ['approvals', 'deny', request.id, '--reason', 'mine'], { env: env() });
    expect([own.code, own.stderr]).toEqual([4, expect.stringContaining('another operator must deny it')]);
    const denied = onTerminal(bia(), ['approvals', 'deny', request.id, '--reason', 'agreed by phone at R$ 300\u001b[2J'], env());
    expect(await denied.exited, denied.screen()).toBe(0);
    expect(await status(here(), request.id)).toMatchObject({ state: 'denied', decided_by: holderOf(bia()), reason: 'agreed by phone at R$ 300' });
    const late = await approve(caio(), request.id, '600,00');
    expect(late.code, late.screen).toBe(4);
    expect(late.screen).toContain(`was denied by ${holderOf(bia())}`);
    expect(voids(await getTx(served().home, sale.id))).toBe(0);
  }, 60_000);

  it('expired: refused, naming when; nothing sent', async () => {
    const sale = await createCard(served().home, '1000.00');
    const request = await requestRefund(here(), env(), sale.id, 60_000, { expiresInMs: 1000 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const late = await approve(bia(), request.id, '600,00');
    expect(late.code, late.screen).toBe(4);
    expect(late.screen).toMatch(new RegExp(`request ${request.id} expired at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC, undecided; nothing was sent`));
    expect(await status(here(), request.id)).toMatchObject({ state: 'expired' });
    expect(voids(await getTx(served().home, sale.id))).toBe(0);
  }, 60_000);

  it("a rule removed by one operator alone stays in force until another approves; approving applies it, nothing else sent", async () => {
    const { rule, request } = await requestRuleRemoval(here(), env());
    expect((await rulesOf(here(), env())).map((r) => [r.id, r.state])).toEqual([[rule, 'active']]);
    const own = onTerminal(ana(), ['approvals', 'approve', request.id], env());
    expect(await own.exited, own.screen()).toBe(4);
    const terminal = onTerminal(bia(), ['approvals', 'approve', request.id], env());
    expect(await terminal.shows(new RegExp(`Type ${rule} to approve`))).toBe(true);
    terminal.type(`${rule}\r`);
    expect(await terminal.exited, terminal.screen()).toBe(0);
    expect(terminal.screen()).toContain(`Approved request ${request.id}: the rule change is in force`);
    expect((await rulesOf(here(), env())).map((r) => [r.id, r.state, r.removed_by])).toEqual([[rule, 'removed', me]]);
    expect(await status(here(), request.id)).toMatchObject({ state: 'sent', decided_by: holderOf(bia()) });
  }, 60_000);

  it('the sale refunded elsewhere before approval: a clear failure, the request failed, no second void', async () => {
    const sale = await createCard(served().home, '1000.00');
    const request = await requestRefund(here(), env(), sale.id, 60_000);
    const elsewhere = await run(here(), ['transactions', 'refund', sale.id, '--yes'], { env: env() });
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    const late = await approve(bia(), request.id, '600,00');
    expect(late.code, late.screen).toBe(6);
    expect(late.screen.replace(/\s*\n\s*/g, ' ')).toContain(`request ${request.id} failed, and is marked so: R$ 600,00 is more than the R$ 0,00 left to refund`);
    const failed = await status(here(), request.id);
    expect(failed).toMatchObject({ state: 'failed', decided_by: holderOf(bia()), intent_id: null });
    expect(failed.reason).toMatch(/R\$ 600,00 is more than the R\$ 0,00 left to refund|nothing left to refund/);
    expect(voids(await getTx(served().home, sale.id))).toBe(1);
  }, 60_000);
});

