import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/serve.js';
import { tempHome, testEnv } from '../helpers/run.js';

// A PAYCTL_HOME (or its state directory) that cannot be created or written, as the built binary
// meets it: every kind of command says so in one line naming the directory, exit 2, at once.
// Never a network error (exit 8), an unknown outcome (exit 9), or a process that never ends: a
// home under /proc once spun at 100% CPU for ever (Node's recursive mkdir), deaf to SIGTERM, so
// each run here is killed with SIGKILL after a few seconds.

let scratch: { home: string; cleanup: () => void };
beforeEach(() => {
  scratch = tempHome();
});
afterEach(() => scratch.cleanup());

const KILL_AFTER_MS = 5_000;
const BOUND_MS = 2_000;

function run(args: string[], home: string, stdin = ''): Promise<{ code: number | null; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: testEnv(home), stdio: ['pipe', 'ignore', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end(stdin);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, ms: Date.now() - started });
    });
  });
}

/** Commands of every kind: reads, money moves (with their ledger), config writes, the sandbox's own. */
function commands(refunds: string): { args: string[]; stdin?: string }[] {
  return [
    { args: ['transactions', 'list', '--limit', '1', '-o', 'json'] },
    { args: ['transactions', 'create', '--payment-type', 'pix', '--amount', '10'] },
    { args: ['transactions', 'refund', '--file', refunds, '--yes'] },
    { args: ['config', 'set', 'timeout', '5'] },
    { args: ['login', '--profile', 'other', '--base-url', 'embedded', '--api-key-stdin', '--insecure-storage'], stdin: 'zpk_test_x\n' },
    { args: ['sandbox', 'generate', '--sales', '1'] },
    { args: ['sandbox', 'reset', '--yes'] },
    { args: ['sandbox', 'serve', '--port', '0'] },
    { args: ['webhooks', 'listen', '--max-events', '1'] },
  ];
}

/** Runs every command against `home`; each must end in one line naming a directory under `names`. */
const MONEY_MOVES = ['transactions create', 'transactions refund'];

async function expectEveryCommandRefused(home: string, names: string, skip: string[] = []): Promise<void> {
  const refunds = join(scratch.home, 'refunds.csv');
  writeFileSync(refunds, 'id,amount_cents\nffffffffffffffffffffffffffffffff,100\n');
  for (const { args, stdin } of commands(refunds)) {
    const shown = args.slice(0, 2).join(' ');
    if (skip.includes(shown)) continue;
    const result = await run(args, home, stdin);
    expect(result.ms, `${shown}: ${result.stderr}`).toBeLessThan(BOUND_MS);
    expect(result.code, `${shown}: ${result.stderr}`).toBe(2);
    // A money move that stops at its ledger's state directory says too that nothing went out (the
    // config directory is read before any command runs).
    const sent = MONEY_MOVES.includes(shown) && result.stderr.startsWith('error: state directory') ? '\\. Nothing was sent' : '';
    expect(result.stderr, shown).toMatch(new RegExp(`^error: (config|state) directory [^\\n]*; set PAYCTL_HOME to a writable directory${sent}\\n$`));
    expect(result.stderr, shown).toContain(names);
    expect(result.stderr, shown).not.toMatch(/may or may not|outcome unknown|cannot tell|HTTP 5\d\d/);
  }
}

describe('an unusable PAYCTL_HOME: one line naming the directory, exit 2, at once, for every command', () => {
  it('under a regular file', async () => {
    const file = join(scratch.home, 'plain');
    writeFileSync(file, '');
    await expectEveryCommandRefused(join(file, 'payctl'), `cannot be used: ${file} is not a directory`);
  });

  it('a regular file itself', async () => {
    const file = join(scratch.home, 'plain');
    writeFileSync(file, '');
    await expectEveryCommandRefused(file, `${file}`);
  });

  it.skipIf(!existsSync('/proc/self'))('under /proc, where mkdir answers ENOENT for ever (it used to hang)', async () => {
    await expectEveryCommandRefused('/proc/payctl-nope', 'cannot be created (mkdir /proc/payctl-nope: ENOENT)');
  });

  it.skipIf(!existsSync('/sys/kernel'))('under /sys, where no one may make a directory (root included)', async () => {
    await expectEveryCommandRefused('/sys/payctl-nope', 'cannot be created (mkdir /sys/payctl-nope: ');
  });
});

describe('a usable PAYCTL_HOME whose state directory is not: the commands that need it say so', () => {
  // `config set` only writes the config, which is fine here.
  const configOnly = ['config set'];

  it('its state directory is a file', async () => {
    writeFileSync(join(scratch.home, 'state'), '');
    await expectEveryCommandRefused(scratch.home, `state directory ${join(scratch.home, 'state')}/`, configOnly);
  });

  it("the sandbox's directory in it is a file", async () => {
    mkdirSync(join(scratch.home, 'state'));
    writeFileSync(join(scratch.home, 'state', 'sandbox'), '');
    await expectEveryCommandRefused(scratch.home, `state directory ${join(scratch.home, 'state', 'sandbox')} cannot be used: it is not a directory`, configOnly);
  });

  it("the ledger's directory in it is a file: a money move stops before anything is sent", async () => {
    mkdirSync(join(scratch.home, 'state'));
    writeFileSync(join(scratch.home, 'state', 'ledger'), '');
    const result = await run(['transactions', 'create', '--payment-type', 'pix', '--amount', '10'], scratch.home);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toBe(`error: state directory ${join(scratch.home, 'state', 'ledger')} cannot be used: it is not a directory; set PAYCTL_HOME to a writable directory. Nothing was sent\n`);
  });
});
