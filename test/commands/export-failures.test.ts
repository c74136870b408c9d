// `payctl export` when the local machine refuses it, and when a run would lose a file:
// - a full disk (a 2 MB tmpfs, mounted in a private mount namespace so that nothing leaks to the
//   machine): one error line naming the file, exit 2, no FILE.partial and no temporary file left,
//   FILE and the state as they were; with room, the same run succeeds;
// - a full disk under the state only: staging the state fails (all removed), or saving it after
//   FILE took its name fails (STATE.next kept, and the next run saves it);
// - a state file that is not one: one line naming it and what to do, exit 2;
// - an incremental run into an --out FILE that exists: refused before anything is read or written,
//   unless --overwrite.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { testEnv } from '../helpers/run.js';
import { createCard, expectJson, expectUsage, run } from './helpers.js';
const BIN = fileURLToPath(new URL('../../bin/payctl.js', import.meta.url));
const file = (home: string, name: string) => join(home, name);

// A private mount namespace: as root, `unshare --mount`; otherwise as the root of a user namespace.
const UNSHARE = process.getuid?.() === 0 ? ['--mount'] : ['--mount', '--map-root-user'];

/** Whether this machine lets a test mount a tmpfs of its own (Linux, unshare, and the right to). */
function canMountTmpfs(): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'payctl-mount-probe-'));
  try {
    return spawnSync('unshare', [...UNSHARE, 'sh', '-c', 'mount -t tmpfs -o size=64k none "$0"', dir], { stdio: 'ignore' }).status === 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Script {
  /** The shell's own exit code (payctl's are printed as codeN=…). */
  code: number | null;
  /** The `key=value` lines the script printed. */
  said: Record<string, string>;
  stderr: string;
}

/**
 * Runs a shell script in a private mount namespace, with $D (a directory of the test's home to
 * mount a tmpfs on), $H (the home, outside any tmpfs), $NODE and $BIN. payctl's stderr goes to
 * files in $H; the script prints what it sees as key=value lines.
 */
function inNamespace(home: string, script: string): Promise<Script> {
  const child = spawn('unshare', [...UNSHARE, 'sh', '-c', script], {
    env: testEnv(home, { D: file(home, 'mnt'), H: home, NODE: process.execPath, BIN }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const said: Record<string, string> = {};
      for (const line of stdout.split('\n')) {
        const at = line.indexOf('=');
        if (at > 0) said[line.slice(0, at)] = line.slice(at + 1);
      }
      resolve({ code, said, stderr });
    });
  });
}

/** What payctl wrote to stderr in the namespace (into $H/<name>). */
const errOf = (home: string, name: string) => readFileSync(file(home, name), 'utf8');

async function generate(home: string, sales: number): Promise<void> {
  expectJson(await run(home, ['sandbox', 'generate', '--sales', String(sales), '--days', '1', '-o', 'json']));
}

const lineCount = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).length;

describe('payctl export on a full disk (a tmpfs in a private mount namespace)', () => {
  // Not skipped where it cannot run: a machine that cannot mount one fails here, saying why.
  it('this machine lets a test mount a tmpfs of its own (unshare, from util-linux, which .ci/run installs)', () => {
    expect(canMountTmpfs()).toBe(true);
  });

  it('an --out on a 2 MB tmpfs: exit 2, one line naming FILE.partial, nothing left, FILE as it was; with room the run succeeds', async ({ home }) => {
    await generate(home, 1500);
    mkdirSync(file(home, 'mnt'));
    const D = file(home, 'mnt');
    const result = await inNamespace(home, `
      mount -t tmpfs -o size=2m none "$D" || exit 90
      printf 'old\\n' > "$D/sales.ndjson"
      "$NODE" "$BIN" export transactions --out "$D/sales.ndjson" 2>"$H/err1"; echo "code1=$?"
      echo "ls1=$(ls -A "$D" | tr '\\n' ' ')"
      echo "old1=$(cat "$D/sales.ndjson")"
      mount -o remount,size=64m "$D" || exit 91
      "$NODE" "$BIN" export transactions --out "$D/sales.ndjson" 2>"$H/err2"; echo "code2=$?"
      echo "ls2=$(ls -A "$D" | tr '\\n' ' ')"
      echo "lines2=$(wc -l < "$D/sales.ndjson")"
      echo "bytes2=$(wc -c < "$D/sales.ndjson")"
      mount -o remount,ro "$D" || exit 92
      "$NODE" "$BIN" export transactions --out "$D/other.ndjson" 2>"$H/err3"; echo "code3=$?"
      echo "ls3=$(ls -A "$D" | tr '\\n' ' ')"
    `);
    expect(result.code, result.stderr).toBe(0);
    const { said } = result;

    expect(said.code1).toBe('2');
    expect(errOf(home, 'err1')).toBe(`error: cannot write ${D}/sales.ndjson.partial while writing the export (no space left on device); removed it; sales.ndjson is as it was\n`);
    expect(said.ls1).toBe('sales.ndjson ');
    expect(said.old1).toBe('old');

    // The same run, with room: the export needed more than the 2 MB it had.
    expect(said.code2, errOf(home, 'err2')).toBe('0');
    expect(errOf(home, 'err2')).toBe(`exported 1.500 transactions to ${D}/sales.ndjson\n`);
    expect(said.ls2).toBe('sales.ndjson ');
    expect(Number(said.lines2)).toBe(1500);
    expect(Number(said.bytes2)).toBeGreaterThan(2 * 1024 * 1024);

    // A read-only file system: refused before anything is read, naming the file it tried.
    expect(said.code3).toBe('2');
    expect(errOf(home, 'err3')).toBe(`error: --out: cannot write ${D}/other.ndjson.partial (read-only file system); nothing was read or written\n`);
    expect(said.ls3).toBe('sales.ndjson ');

    // The mount was the namespace's only.
    expect(readdirSync(D)).toEqual([]);
  }, 60_000);

  it('--out and --state on the 2 MB tmpfs: no STATE.next, no temporary file, the state unchanged; with room the run succeeds', async ({ home }) => {
    await generate(home, 5);
    mkdirSync(file(home, 'mnt'));
    const D = file(home, 'mnt');
    const result = await inNamespace(home, `
      mount -t tmpfs -o size=2m none "$D" || exit 90
      "$NODE" "$BIN" export transactions --out "$D/1.ndjson" --state "$D/s.json" 2>"$H/err1"; echo "code1=$?"
      cp "$D/s.json" "$H/state-before.json"
      "$NODE" "$BIN" sandbox generate --sales 1500 --days 1 -o json >/dev/null 2>"$H/generate.err" || exit 91
      "$NODE" "$BIN" export transactions --out "$D/2.ndjson" --state "$D/s.json" 2>"$H/err2"; echo "code2=$?"
      echo "ls2=$(ls -A "$D" | tr '\\n' ' ')"
      cp "$D/s.json" "$H/state-after.json"
      mount -o remount,size=64m "$D" || exit 92
      "$NODE" "$BIN" export transactions --out "$D/2.ndjson" --state "$D/s.json" 2>"$H/err3"; echo "code3=$?"
      echo "ls3=$(ls -A "$D" | tr '\\n' ' ')"
      echo "lines3=$(wc -l < "$D/2.ndjson")"
      cp "$D/s.json" "$H/state-last.json"
    `);
    expect(result.code, result.stderr).toBe(0);
    const { said } = result;
    expect(said.code1, errOf(home, 'err1')).toBe('0');

    expect(said.code2).toBe('2');
    expect(errOf(home, 'err2')).toBe(`error: cannot write ${D}/2.ndjson.partial while writing the export (no space left on device); removed it; 2.ndjson was not written and its state is as it was\n`);
    expect(said.ls2).toBe('1.ndjson s.json ');
    expect(readFileSync(file(home, 'state-after.json'), 'utf8')).toBe(readFileSync(file(home, 'state-before.json'), 'utf8'));

    expect(said.code3, errOf(home, 'err3')).toBe('0');
    expect(said.ls3).toBe('1.ndjson 2.ndjson s.json ');
    expect(Number(said.lines3)).toBe(1500);
    expect(JSON.parse(readFileSync(file(home, 'state-last.json'), 'utf8')).runs).toBe(2);
  }, 60_000);

  it('the state on a tiny tmpfs: staging it fails (FILE.partial and the temporary file removed); saving it after FILE took its name fails (STATE.next kept), and the next run saves it', async ({ home }) => {
    await generate(home, 5);
    mkdirSync(file(home, 'mnt'));
    const D = file(home, 'mnt');
    const out = file(home, '2.ndjson');
    // 1,505 records in the window make a state of about 115 KB: it does not fit in 64 KB; in
    // 192 KB STATE.next fits, but not the state's temporary file beside it.
    const result = await inNamespace(home, `
      mount -t tmpfs -o size=64k none "$D" || exit 90
      "$NODE" "$BIN" export transactions --out "$H/1.ndjson" --state "$D/s.json" 2>"$H/err1"; echo "code1=$?"
      cp "$D/s.json" "$H/state-before.json"
      "$NODE" "$BIN" sandbox generate --sales 1500 --days 1 -o json >/dev/null 2>"$H/generate.err" || exit 91
      "$NODE" "$BIN" export transactions --out "$H/2.ndjson" --state "$D/s.json" 2>"$H/err2"; echo "code2=$?"
      echo "ls2=$(ls -A "$D" | tr '\\n' ' ')"
      echo "out2=$(ls -A "$H" | grep -c '^2\\.ndjson')"
      cp "$D/s.json" "$H/state-2.json"
      mount -o remount,size=192k "$D" || exit 92
      "$NODE" "$BIN" export transactions --out "$H/2.ndjson" --state "$D/s.json" 2>"$H/err3"; echo "code3=$?"
      echo "ls3=$(ls -A "$D" | tr '\\n' ' ')"
      cp "$D/s.json" "$H/state-3.json"
      cp "$D/s.json.next" "$H/staged-3.json"
      mount -o remount,size=1m "$D" || exit 93
      "$NODE" "$BIN" export transactions --out "$H/2.ndjson" --state "$D/s.json" 2>"$H/err4"; echo "code4=$?"
      echo "ls4=$(ls -A "$D" | tr '\\n' ' ')"
      cp "$D/s.json" "$H/state-4.json"
    `);
    expect(result.code, result.stderr).toBe(0);
    const { said } = result;
    const before = readFileSync(file(home, 'state-before.json'), 'utf8');
    expect(said.code1, errOf(home, 'err1')).toBe('0');

    expect(said.code2).toBe('2');
    expect(errOf(home, 'err2')).toMatch(
      new RegExp(`^error: cannot write ${D}/s\\.json\\.next\\.tmp-\\d+ while saving the state \\(no space left on device\\); removed it and ${out}\\.partial; 2\\.ndjson was not written and its state is as it was\\n$`),
    );
    expect(said.ls2).toBe('s.json ');
    expect(said.out2).toBe('0');
    expect(readFileSync(file(home, 'state-2.json'), 'utf8')).toBe(before);

    expect(said.code3).toBe('2');
    expect(errOf(home, 'err3')).toMatch(
      new RegExp(
        `^error: cannot write ${D}/s\\.json\\.tmp-\\d+ while saving the state \\(no space left on device\\); removed it; 2\\.ndjson is complete, but its state is not saved: ${D}/s\\.json\\.next holds it, and the next run with --state ${D}/s\\.json saves it \\(make room first\\); s\\.json is as it was\\n$`,
      ),
    );
    expect(said.ls3).toBe('s.json s.json.next ');
    expect(readFileSync(file(home, 'state-3.json'), 'utf8')).toBe(before);
    expect(lineCount(out)).toBe(1500);
    expect(existsSync(`${out}.partial`)).toBe(false);

    // With room, the same command saves that state and keeps the file (it is the last run's).
    expect(said.code4, errOf(home, 'err4')).toBe('0');
    expect(errOf(home, 'err4')).toBe(`the last run had written ${out} whole before it stopped; its state is saved now\n`);
    expect(said.ls4).toBe('s.json ');
    expect(JSON.parse(readFileSync(file(home, 'state-4.json'), 'utf8'))).toEqual(JSON.parse(readFileSync(file(home, 'staged-3.json'), 'utf8')).state);
    expect(lineCount(out)).toBe(1500);
  }, 60_000);
});

describe('payctl export: a state file that is not one', () => {
  it('exit 2, one line naming it and what to do; nothing written; moved away, the run starts over', async ({ home }) => {
    await generate(home, 3);
    const state = file(home, 's.json');
    const out = file(home, 'out.ndjson');
    const good = await run(home, ['export', 'transactions', '--out', file(home, 'first.ndjson'), '--state', state]);
    expect(good.code, good.stderr).toBe(0);
    const saved = readFileSync(state, 'utf8');
    const valid = JSON.parse(saved);
    const remedy = 'if it was damaged, restore it from a copy, or move it away and run again: the next run then exports everything (with --since, from that day)';
    const cases: Array<[string, string]> = [
      ['not json', 'not JSON'],
      ['', 'it is empty'],
      [saved.slice(0, Math.floor(saved.length / 2)), 'its JSON is cut short or damaged'],
      ['[1, 2]', 'it is not a JSON object'],
      [JSON.stringify({ ...valid, payctl_export: 2 }), 'it has no "payctl_export": 1'],
      [JSON.stringify({ ...valid, cursor: 'yesterday' }), 'its "cursor" is not null or a date'],
      [JSON.stringify({ ...valid, lookback_days: '3' }), 'its "lookback_days" is not 0 to 365'],
      [JSON.stringify({ ...valid, seen: {} }), 'its "seen" is not a list'],
      [JSON.stringify({ ...valid, seen: [['id', 7, 'x']] }), 'its "seen" holds an entry that is not [id, created_at, fingerprint]'],
    ];
    for (const [text, why] of cases) {
      writeFileSync(state, text);
      const line = expectUsage(await run(home, ['export', 'transactions', '--out', out, '--state', state]));
      expect(line).toBe(`error: --state: ${state} is not a payctl export state file (${why}); ${remedy}`);
      expect(readFileSync(state, 'utf8')).toBe(text);
      expect(existsSync(out)).toBe(false);
      expect(existsSync(`${out}.partial`)).toBe(false);
      expect(existsSync(`${state}.lock`)).toBe(false);
    }
    // What the line says to do works: moved away, the next run exports everything.
    rmSync(state);
    const again = await run(home, ['export', 'transactions', '--out', out, '--state', state]);
    expect(again.code, again.stderr).toBe(0);
    expect(lineCount(out)).toBe(3);
  });
});

describe('payctl export: an incremental run into an --out FILE that exists', () => {
  it('is refused before anything is read or written (FILE and the state unchanged); --overwrite replaces it; a new --out runs', async ({ home }) => {
    await generate(home, 4);
    const state = file(home, 's.json');
    const out = file(home, 'sales.ndjson');
    const first = await run(home, ['export', 'transactions', '--out', out, '--state', state]);
    expect(first.code, first.stderr).toBe(0);
    const bytes = readFileSync(out);
    const savedState = readFileSync(state, 'utf8');
    expect(lineCount(out)).toBe(4);
    await createCard(home, '21.00');

    const refused = await run(home, ['export', 'transactions', '--out', out, '--state', state]);
    expect(expectUsage(refused)).toBe(
      `error: --out: ${out} exists, and this run, starting from ${state}, would replace it with only what is new or changed since the last run; nothing was read or written. Give each run its own file (--out ${file(home, 'sales')}-$(date +%F-%H%M).ndjson), or add --overwrite to replace it`,
    );
    expect(readFileSync(out).equals(bytes)).toBe(true);
    expect(readFileSync(state, 'utf8')).toBe(savedState);
    expect(existsSync(`${out}.partial`)).toBe(false);
    expect(existsSync(`${state}.next`)).toBe(false);

    // The name as given is the one suggested: a relative --out, a relative suggestion.
    const relative = await run(home, ['export', 'transactions', '--format', 'ndjson', '--out', out.replace(`${home}/`, `${home}/./`), '--state', state]);
    expect(expectUsage(relative)).toContain(`(--out ${home}/./sales-$(date +%F-%H%M).ndjson)`);

    const replaced = await run(home, ['export', 'transactions', '--out', out, '--state', state, '--overwrite']);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(replaced.stderr).toContain(`exported 1 transaction to ${out}`);
    expect(lineCount(out)).toBe(1);

    await createCard(home, '22.00');
    const next = await run(home, ['export', 'transactions', '--out', file(home, 'sales-2.ndjson'), '--state', state]);
    expect(next.code, next.stderr).toBe(0);
    expect(lineCount(file(home, 'sales-2.ndjson'))).toBe(1);
    expect(JSON.parse(readFileSync(state, 'utf8')).runs).toBe(3);
  });

  it('a first run (no state yet, or a state that has seen nothing) and a run without --state still write over FILE', async ({ home }) => {
    const out = file(home, 'all.ndjson');
    writeFileSync(out, 'old\n');
    // An empty sandbox: the first run sees nothing, and its state has no cursor.
    const empty = await run(home, ['export', 'transactions', '--out', out, '--state', file(home, 's.json')]);
    expect(empty.code, empty.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('');
    await generate(home, 2);
    const second = await run(home, ['export', 'transactions', '--out', out, '--state', file(home, 's.json')]);
    expect(second.code, second.stderr).toBe(0);
    expect(lineCount(out)).toBe(2);
    const plain = await run(home, ['export', 'transactions', '--out', out]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(lineCount(out)).toBe(2);
  });
});
