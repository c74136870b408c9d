import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { payctl, tempHome } from '../helpers/run.js';

// The completion scripts: generated from the command tree, checked in, and tried in the real
// shells (bash, zsh and fish, from Debian's packages; .ci/run installs them).
const root = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(root, 'bin', 'payctl.js');
const FILES: Record<string, string> = { bash: 'completions/payctl.bash', zsh: 'completions/_payctl', fish: 'completions/payctl.fish' };
const home = tempHome();

const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;

describe('completion scripts', () => {
  it('are what `payctl completion <shell>` prints now: run `npm run completions` after changing commands', async () => {
    for (const [shell, file] of Object.entries(FILES)) {
      const result = await payctl(['completion', shell], { home: home.home });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout, `${file} is stale`).toBe(readFileSync(join(root, file), 'utf8'));
    }
    const bad = await payctl(['completion', 'powershell'], { home: home.home });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bash, zsh or fish');
  });

  it('profile names come from the config, for --profile', async () => {
    const env = { PAYCTL_API_KEY: undefined };
    expect((await payctl(['config', 'set', 'base_url', 'https://api.example.com', '--profile', 'live'], { home: home.home, env })).code).toBe(0);
    const result = await payctl(['completion', 'profiles'], { home: home.home });
    expect(result.stdout).toBe('sandbox\nlive\n');
  });
});

// A `payctl` on PATH for the scripts' own calls (profile names).
const binDir = join(home.home, 'bin');
mkdirSync(binDir, { recursive: true });
writeFileSync(join(binDir, 'payctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
chmodSync(join(binDir, 'payctl'), 0o755);
const shellEnv = { ...process.env, PATH: `${binDir}:${process.env.PATH}`, PAYCTL_HOME: home.home };

const CASES: Array<[line: string, expected: string[]]> = [
  ['payctl tr', ['transactions', 'transfers']],
  ['payctl transactions ', ['create', 'list', 'get', 'update', 'refund', 'capture', 'cancellation-letter', 'splits']],
  ['payctl transactions splits ', ['list', 'get', 'add', 'remove']],
  ['payctl tx splits add --s', ['--split']],
  ['payctl transactions splits list --st', []],
  ['payctl transactions create --pay', expect.arrayContaining(['--payment-type', '--payment-limit-date', '--payer-first-name']) as unknown as string[]],
  ['payctl -o json transactions create --payment-type ', ['credit', 'boleto', 'bolepix', 'pix']],
  // An alias is its group, for verbs and for the values of their flags.
  ['payctl tx ', ['create', 'list', 'get', 'update', 'refund', 'capture', 'cancellation-letter', 'splits']],
  ['payctl tx list --status suc', ['succeeded']],
  ['payctl transactions list --group-by ', ['day', 'week', 'month', 'seller', 'payment-type', 'card-brand', 'status']],
  ['payctl transfers list --status ', ['pending', 'succeeded', 'failed', 'canceled']],
  // A command's argument, and its flags' values after it.
  ['payctl export ', ['transactions', 'transfers', 'balance-history', 'receivables', 'future-entries']],
  ['payctl export transactions --format ', ['ndjson', 'csv', 'parquet']],
  ['payctl --csv-locale ', ['pt-BR', 'none']],
  // help: the commands, then the topics.
  ['payctl help ex', ['export', 'exit-codes', 'exactly-once']],
];

function bashComplete(line: string): string[] {
  const script = `source ${JSON.stringify(join(root, FILES.bash as string))}
read -ra COMP_WORDS <<< ${JSON.stringify(line)}
${line.endsWith(' ') ? 'COMP_WORDS+=("")' : ''}
COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
_payctl
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = spawnSync('bash', ['-c', script], { encoding: 'utf8', env: shellEnv });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\n').filter(Boolean);
}

function zshComplete(line: string): string[] {
  const r = spawnSync('zsh', [join(root, 'test/completion/zsh-harness.zsh'), join(root, FILES.zsh as string), line], { encoding: 'utf8', env: shellEnv });
  // A zsh error in the script shows on stderr (the harness's own status is its last test's).
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout.split('\n').filter(Boolean);
}

function fishComplete(line: string): string[] {
  const r = spawnSync('fish', ['--no-config', '-c', `source ${join(root, FILES.fish as string)}; complete -C ${JSON.stringify(line)}`], { encoding: 'utf8', env: shellEnv });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[0] as string);
}

for (const [shell, complete] of [
  ['bash', bashComplete],
  ['zsh', zshComplete],
  ['fish', fishComplete],
] as const) {
  // CI installs the shells, so there a missing one fails; elsewhere it is skipped with its name.
  describe.runIf(has(shell) || process.env.CI === 'true')(`in ${shell}`, () => {
    it.each(CASES)('completes "%s"', (line, expected) => {
      const got = complete(line);
      if (Array.isArray(expected)) expect([...got].sort()).toEqual([...expected].sort());
      else expect(got).toEqual(expected);
    });

    it('completes profile names after --profile', () => {
      expect(complete('payctl --profile ')).toEqual(expect.arrayContaining(['sandbox']));
    });
  });
}
