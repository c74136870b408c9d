import { spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRevision, NOISE, resolveRevision, verdict } from './against.mjs';

const repo = path.resolve(import.meta.dirname, '../..');

describe('bench --against: the verdict', () => {
  it('calls a rate better when higher and a time, memory or size better when lower', () => {
    expect(verdict(120, 100, 'sales/s')).toBe('better');
    expect(verdict(80, 100, 'rows/s')).toBe('worse');
    expect(verdict(80, 100, 'ms')).toBe('better');
    expect(verdict(120, 100, 'MB')).toBe('worse');
    expect(verdict(120, 100, 'bytes/sale')).toBe('worse');
  });

  it(`calls anything within ±${NOISE * 100} % the same, edges included`, () => {
    expect(NOISE).toBe(0.05);
    for (const unit of ['ms', 'refunds/s']) {
      expect(verdict(105, 100, unit)).toBe('same');
      expect(verdict(95, 100, unit)).toBe('same');
      expect(verdict(100, 100, unit)).toBe('same');
    }
    expect(verdict(105.5, 100, 'ms')).toBe('worse');
    expect(verdict(94.5, 100, 'items/s')).toBe('worse');
  });
});

describe('bench --against: the other build', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'payctl-against-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('resolves a revision to its commit and refuses one that names none', () => {
    const head = spawnSync('git', ['-C', repo, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
    expect(resolveRevision(repo, 'HEAD')).toBe(head);
    expect(() => resolveRevision(repo, 'no-such-revision-anywhere')).toThrow();
  });

  it('builds a commit from its archive into a directory of its own, with this checkout’s node_modules', () => {
    const commit = resolveRevision(repo, 'HEAD');
    const cli = buildRevision(repo, commit, dir);
    expect(cli).toBe(path.join(dir, 'bin', 'payctl.js'));
    expect(lstatSync(path.join(dir, 'node_modules')).isSymbolicLink()).toBe(true);
    expect(realpathSync(path.join(dir, 'node_modules'))).toBe(realpathSync(path.join(repo, 'node_modules')));
    const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
    // --version answers from bin/ alone; a list on the embedded sandbox needs the bundle, and
    // better-sqlite3 through the link.
    expect(spawnSync(process.execPath, [cli, '--version'], { encoding: 'utf8' }).stdout.trim()).toBe(version);
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PAYCTL_')));
    const listed = spawnSync(process.execPath, [cli, 'transactions', 'list', '--limit', '1', '-o', 'json'], { encoding: 'utf8', env: { ...env, PAYCTL_HOME: path.join(dir, 'home'), NO_COLOR: '1' } });
    expect(listed.stderr).not.toMatch(/error/i);
    expect(listed.status).toBe(0);
    expect(Array.isArray(JSON.parse(listed.stdout))).toBe(true);
  }, 120_000);
});
