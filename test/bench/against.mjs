// For `npm run bench -- --against <rev>`: the build of another revision, and the verdict on a figure
// of both builds. The build is its tree from `git archive` (so the repository's worktrees and index
// stay untouched), with this checkout's node_modules linked in and its own `npm run build`; the
// caller owns `dir` and removes it however the run ends.
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';

function git(repoRoot, args) {
  const r = spawnSync('git', ['-C', repoRoot, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

/** The commit `rev` names, or an error saying it names none (checked before anything is measured). */
export function resolveRevision(repoRoot, rev) {
  return git(repoRoot, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]);
}

/** Builds `commit` into `dir` (empty) and returns the path of its bin/payctl.js. */
export function buildRevision(repoRoot, commit, dir) {
  const unpacked = spawnSync('sh', ['-c', 'git -C "$0" archive --format=tar "$1" | tar -x -C "$2"', repoRoot, commit, dir], { encoding: 'utf8' });
  if (unpacked.status !== 0) throw new Error(`git archive ${commit} failed: ${unpacked.stderr.trim()}`);
  // The real directory: this checkout's node_modules may itself be a link.
  symlinkSync(realpathSync(path.join(repoRoot, 'node_modules')), path.join(dir, 'node_modules'), 'dir');
  const built = spawnSync('npm', ['run', 'build'], { cwd: dir, encoding: 'utf8', timeout: 600_000 });
  if (built.status !== 0) throw new Error(`npm run build of ${commit} failed:\n${built.stdout}${built.stderr}`);
  const cli = path.join(dir, 'bin', 'payctl.js');
  if (!existsSync(cli)) throw new Error(`${commit} has no bin/payctl.js`);
  return cli;
}

// A ratio within ±NOISE of 1 is "same": run-to-run noise on a busy machine moves medians that much.
export const NOISE = 0.05;

/** "better", "same" or "worse" for this build's median against the other's: rates (unit …/s) are better higher; times, memory and bytes lower. */
export function verdict(mine, theirs, unit) {
  const ratio = mine / theirs;
  // The band's edges count as inside it, whatever 1.05 − 1 comes to in floating point.
  if (Math.abs(ratio - 1) <= NOISE + 1e-9) return 'same';
  return (unit.endsWith('/s') ? ratio > 1 : ratio < 1) ? 'better' : 'worse';
}
