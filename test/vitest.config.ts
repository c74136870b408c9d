// Two lanes. `npm test` (and CI) runs both: every test file. `npm run test:fast` runs only the
// `fast` project, the unit and in-process tests, with no build; its files run three at a time
// (`--maxWorkers=3` in the script), as many of them wait on sockets and timers rather than compute.
//
// A test file is in the fast lane unless one of these holds:
//   - it, or a helper under test/ that it imports (however indirectly), imports node:child_process:
//     it starts processes (bin/payctl.js, `sandbox serve`, PostgreSQL, tmux, shells, a keyring
//     daemon, another Node) and needs `npm run build`, services or a terminal;
//   - it is listed in WAITS below, with the reason it is slow in-process.
// So a new file lands in its lane by what it imports; one that is slow for another reason (it
// waits out real timeouts, it loops over thousands of sales) goes into WAITS.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// This file lives in test/ (the repository's top level holds only what the layout names); the
// project is the directory above it.
const root = dirname(dirname(fileURLToPath(import.meta.url)));

/** In-process files slow enough to leave to the full run: path under test/ → why. */
const WAITS: Record<string, string> = {
  'sandbox/thread-host.test.ts': 'waits out threads that are slow to stop or never answer, up to the close deadline',
  'sandbox/webhooks.test.ts': 'waits out delivery retries and the bounded time after which an event is given up on',
  'commands/new-card.test.ts': 'waits out a charge whose answer is lost (--timeout 1) before the rerun that settles it',
  'commands/hostile-reads.test.ts': 'waits on a paced list (a page every 150 ms) for the progress a terminal shows',
  'commands/test-key-elsewhere.test.ts': "waits out a service that never answers the clock's question, to its timeout",
  'commands/list-names.test.ts': "waits out a service that never answers a name's read, to its deadline",
  'api/outcome-waits.test.ts': 'waits out a lost or refused money move (--timeout, the look for its outcome, a settle window) before exit 9',
  'api/bounded-waits.test.ts': 'holds real deadlines of 0.3 to 0.4 s against trickling and silent servers: on a loaded machine the request itself can take that long',
  'commands/policy-wait.test.ts': 'waits on real clocks for a decision on a request (polled every second) or its expiry, with --wait',
  'commands/time-zone.test.ts': 'lists and exports 3,000 generated sales, a day and a month at a time, in two zones',
  'commands/group-by.test.ts': 'lists 1,500 generated sales whole for each grouping, to check that the groups add up to the list',
  'commands/splits-lost.test.ts': 'waits out the look for a split rule whose answer was lost (--timeout 1) before the rerun that settles it',
};

const STARTS_PROCESSES = /from\s+['"]node:child_process['"]|import\(\s*['"]node:child_process['"]\s*\)/;
const LOCAL_IMPORT = /(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

function startsProcesses(file: string, seen = new Map<string, boolean>()): boolean {
  const known = seen.get(file);
  if (known !== undefined) return known;
  seen.set(file, false);
  const text = readFileSync(file, 'utf8');
  let found = STARTS_PROCESSES.test(text);
  for (const [, spec] of text.matchAll(LOCAL_IMPORT)) {
    if (found) break;
    const target = resolve(dirname(file), spec!.replace(/\.js$/, '.ts'));
    // Only the test helpers decide; a path in a string the test builds may name no file.
    if (relative(join(root, 'test'), target).startsWith('..') || !existsSync(target)) continue;
    found = startsProcesses(target, seen);
  }
  seen.set(file, found);
  return found;
}

const testFiles = (readdirSync(join(root, 'test'), { recursive: true, encoding: 'utf8' }) as string[])
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => `test/${file.split('\\').join('/')}`)
  .sort();
const fast = testFiles.filter((file) => !(file.slice('test/'.length) in WAITS) && !startsProcesses(join(root, file)));

export default defineConfig({
  root,
  test: {
    projects: [
      { extends: true, test: { name: 'fast', include: fast } },
      { extends: true, test: { name: 'full', include: testFiles.filter((file) => !fast.includes(file)) } },
    ],
  },
});
