import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { converse, KEY } from '../helpers/interactive.js';
import { testEnv } from '../helpers/run.js';
import { BIN, eventually } from '../helpers/serve.js';
import { createCard, getTx, lastError } from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

// A bulk file of any size is checked whole before anything is sent, and never held in memory: it
// is read twice (standard input through a private copy), keeping a few dozen bytes a row. Peak
// memory is the child's own, written by the process at exit.
const voids = (tx: Transaction) => tx.history.filter((h) => h.operation_type === 'void' && h.status === 'succeeded').length;
const bulkDir = (home: string) => join(home, 'state', 'bulk');

/** A CSV of `rows` refunds of random (unknown) sales. */
function bigCsv(path: string, rows: number): void {
  const lines: string[] = ['id,amount'];
  for (let i = 0; i < rows; i += 1) lines.push(`${randomBytes(16).toString('hex')},1.00`);
  writeFileSync(path, `${lines.join('\n')}\n`);
}

/** `cat file | payctl …` with stdout discarded: exit code, stderr and peak RSS in MB. */
async function piped(home: string, file: string, args: string[]): Promise<{ code: number | null; stderr: string; rssMb: number }> {
  const rssFile = join(home, 'rss');
  const reporter = join(home, 'report-rss.mjs');
  writeFileSync(reporter, `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(process.env.RSS_FILE, String(process.resourceUsage().maxRSS)));\n`);
  const child = spawn('sh', ['-c', `cat "${file}" | "${process.execPath}" --import "${reporter}" "${BIN}" ${args.join(' ')} > /dev/null`], { env: testEnv(home, { RSS_FILE: rssFile }) });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stderr, rssMb: Number(readFileSync(rssFile, 'utf8')) / 1024 };
}

describe('a file of any size', () => {
  it('a million rows through a pipe: read whole, in bounded memory, its copy removed; one more row is exit 2', async ({ home }) => {
    const file = join(home, 'million.csv');
    bigCsv(file, 1_000_000);
    const read = await piped(home, file, ['transactions', 'refund', '--file', '-', '--yes', '--dry-run']);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stderr).toBe('dry run: 1.000.000 rows read, nothing was sent\n');
    console.log(`a million rows through a pipe, read twice: peak RSS ${read.rssMb.toFixed(0)} MB`);
    // Held whole, the rows took 307 MB.
    expect(read.rssMb).toBeLessThan(200);
    expect(readdirSync(bulkDir(home))).toEqual([]);

    appendFileSync(file, `${randomBytes(16).toString('hex')},1.00\n`);
    const over = await piped(home, file, ['transactions', 'refund', '--file', '-', '--yes']);
    expect(over.code).toBe(2);
    expect(over.stderr).toBe('error: --file: more than 1.000.000 rows; split it into files of at most that many and run them one after another (each sale is refunded once however the files overlap). Nothing was sent\n');
    expect(over.rssMb).toBeLessThan(200);
    expect(readdirSync(bulkDir(home))).toEqual([]);
  }, 120_000);

  it('edited between its two readings (while the confirmation is read): the rows before the edit run, none after; exit 2', async ({ home }) => {
    const sales = await Promise.all(Array.from({ length: 3 }, () => createCard(home, '100.00')));
    const file = join(home, 'refunds.csv');
    writeFileSync(file, `id,amount\n${sales.map((s) => `${s.id},1.00`).join('\n')}\n`);
    const result = await converse(['transactions', 'refund', '--file', file, '--concurrency', '1', '-o', 'ndjson'], home, [
      {
        prompt: /Refund 3 transactions \(R\$ 3,00\)\?/,
        // Row 3 now asks R$ 9,00: not what was confirmed.
        meanwhile: () => writeFileSync(file, readFileSync(file, 'utf8').replace(`${sales[2]!.id},1.00`, `${sales[2]!.id},9.00`)),
        keys: `y${KEY.enter}`,
      },
    ]);
    expect(result.code, result.stderr).toBe(2);
    // Wrapped between words on the terminal the confirmation was read on.
    expect(lastError(result.stderr).text).toBe(
      'error: --file: the file changed after it was read (row 3 is not what it was); the batch stopped there and sent nothing for that row or any after it. Check the file and run the same command again: rows already refunded are skipped',
    );
    expect(result.stdout.trim().split('\n').map((l) => JSON.parse(l).status)).toEqual(['refunded', 'refunded']);
    expect((await getTx(home, sales[0]!.id)).amount).toBe('99.00');
    expect((await getTx(home, sales[1]!.id)).amount).toBe('99.00');
    expect(voids(await getTx(home, sales[2]!.id))).toBe(0);
  });

  it("standard input's private copy: 0600 under <state>/bulk, removed on Ctrl-C; a copy whose process is gone is removed by the next run", async ({ home }) => {
    mkdirSync(bulkDir(home), { recursive: true });
    const stale = join(bulkDir(home), 'input-999999999-0badc0de.spool');
    const live = join(bulkDir(home), `input-${process.pid}-0badc0de.spool`);
    writeFileSync(stale, 'id,amount\n');
    writeFileSync(live, 'id,amount\n');
    // A pipe that stays open: the run is still in its first reading.
    const child = spawn(process.execPath, [BIN, 'transactions', 'refund', '--file', '-', '--yes'], { env: testEnv(home), stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    child.stdin.write(`id,amount\n${'a'.repeat(32)},1.00\n`);
    const own = () => readdirSync(bulkDir(home)).filter((name) => name.startsWith(`input-${child.pid}-`));
    await eventually(() => own().length === 1 && statSync(join(bulkDir(home), own()[0] as string)).size > 0, 10_000, 'the copy of standard input');
    expect(statSync(join(bulkDir(home), own()[0] as string)).mode & 0o777).toBe(0o600);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(live)).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(3);
    expect(stderr).toMatch(/cancelled/);
    expect(own()).toEqual([]);
  }, 30_000);

  it('a disk too full for the copy of standard input: exit 2 naming the directory, nothing sent, nothing left', ({ home }) => {
    const tiny = join(home, 'tiny');
    const file = join(home, 'rows.csv');
    bigCsv(file, 60_000);
    const payctl = `env -i PAYCTL_HOME="${tiny}" PATH="${process.env.PATH ?? ''}" TZ=UTC "${process.execPath}" "${BIN}" transactions refund --file - --yes`;
    const script = [
      'set -u',
      `mkdir -p "${tiny}" && mount -t tmpfs -o size=1m none "${tiny}"`,
      `cat "${file}" | ${payctl} > "${home}/out" 2> "${home}/err"; echo "code=$?"`,
      `ls -A "${tiny}/state/bulk" | tr '\\n' ' '; echo`,
      `ls -A "${tiny}/state" | tr '\\n' ' '; echo`,
    ].join('\n');
    const unshare = ['--mount', ...(process.getuid?.() === 0 ? [] : ['--map-root-user'])];
    const result = spawnSync('unshare', [...unshare, 'sh', '-c', script], { encoding: 'utf8', timeout: 60_000 });
    expect(result.status, result.stderr).toBe(0);
    const [code, bulk, state] = result.stdout.split('\n');
    expect(code).toBe('code=2');
    expect(readFileSync(join(home, 'err'), 'utf8')).toBe(`error: directory for a copy of standard input ${tiny}/state/bulk is on a full disk; set PAYCTL_HOME to a writable directory. Nothing was sent\n`);
    expect(readFileSync(join(home, 'out'), 'utf8')).toBe('');
    expect(bulk?.trim()).toBe('');
    // No ledger was opened: the first reading ends before anything is recorded or sent.
    expect(state?.trim()).toBe('bulk');
  }, 60_000);
});
