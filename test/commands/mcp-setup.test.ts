import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.js';
import { payctl, type RunResult } from '../helpers/run.js';

// `payctl mcp setup`: the entry that makes an agent's client start `payctl mcp --profile NAME`,
// printed in each client's own format, or added to its file with --write.

const bin = resolve(import.meta.dirname, '../../bin/payctl.js');

interface Dirs {
  /** The project: the command's current directory. */
  project: string;
  /** XDG_CONFIG_HOME, where Claude Desktop's file is on Linux. */
  xdg: string;
}

/** `run` is payctl in a fresh home, a fresh project directory and a fresh XDG config directory. */
const it = test.extend<{ dirs: Dirs; run: (args: string[], env?: Record<string, string>) => Promise<RunResult> }>({
  dirs: async ({}, use) => {
    const root = mkdtempSync(join(tmpdir(), 'payctl-mcp-setup-'));
    const dirs = { project: join(root, 'project'), xdg: join(root, 'xdg') };
    mkdirSync(dirs.project);
    await use(dirs);
    rmSync(root, { recursive: true, force: true });
  },
  run: async ({ home, dirs }, use) => use((args, env = {}) => payctl(args, { home, cwd: dirs.project, env: { XDG_CONFIG_HOME: dirs.xdg, ...env } })),
});

/** The command every entry runs, for the sandbox profile of `home`. */
const launch = (home: string, profile = 'sandbox') => ({ command: process.execPath, args: [bin, 'mcp', '--profile', profile], env: { PAYCTL_HOME: home } });

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, Record<string, unknown>>;

describe('payctl mcp setup: printed', () => {
  it('each client in its own format and file, for the sandbox with no account', async ({ run, home, dirs }) => {
    const result = await run(['mcp', 'setup', '-o', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const entries = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(entries.map((e) => [e.client, e.file, e.key])).toEqual([
      ['claude-code', join(dirs.project, '.mcp.json'), 'mcpServers'],
      ['claude-desktop', join(dirs.xdg, 'Claude', 'claude_desktop_config.json'), 'mcpServers'],
      ['cursor', join(dirs.project, '.cursor', 'mcp.json'), 'mcpServers'],
      ['vscode', join(dirs.project, '.vscode', 'mcp.json'), 'servers'],
    ]);
    expect(entries.map((e) => e.entry)).toEqual([{ type: 'stdio', ...launch(home) }, launch(home), launch(home), { type: 'stdio', ...launch(home) }]);
    expect(entries[0]!.command_line).toBe(`claude mcp add --transport stdio --env PAYCTL_HOME=${home} payctl -- ${process.execPath} ${bin} mcp --profile sandbox`);
    expect(result.stderr).toContain('the server runs profile "sandbox" (the embedded sandbox: no account, no real money) with reading tools only');
    // Nothing written anywhere.
    expect(readdirSync(dirs.project)).toEqual([]);
  });

  it('one client, as a person pastes it; the profile named by --profile; its mcp_allow said, not written', async ({ run, home, dirs }) => {
    writeFileSync(join(home, 'config.json'), JSON.stringify({ profiles: { support: { base_url: 'https://api.example.com', api_key: 'zpk_live_secretkey123456', mcp_allow: 'refunds' } } }));
    const result = await run(['--profile', 'support', 'mcp', 'setup', '--client', 'vscode', '-o', 'table']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`VS Code: in ${join(dirs.project, '.vscode', 'mcp.json')}\n${JSON.stringify({ servers: { payctl: { type: 'stdio', ...launch(home, 'support') } } }, null, 2)}\n`);
    expect(result.stderr).toContain('the server runs profile "support" with reading tools and the money tools of refunds (its mcp_allow)');
    expect(result.stdout).not.toContain('secretkey');
  });

  it('a relative PAYCTL_HOME is made absolute, and a path with a space is quoted in the command line', async ({ dirs }) => {
    const result = await payctl(['mcp', 'setup', '--client', 'claude-code', '-o', 'json'], { home: 'my home', cwd: dirs.project });
    expect(result.code, result.stderr).toBe(0);
    const entry = JSON.parse(result.stdout) as { entry: { env: Record<string, string> }; command_line: string };
    expect(entry.entry.env).toEqual({ PAYCTL_HOME: join(dirs.project, 'my home') });
    expect(entry.command_line).toContain(`--env 'PAYCTL_HOME=${join(dirs.project, 'my home')}' payctl -- `);
  });

  it('a broken mcp_allow is an error naming it, as the server would say', async ({ run, home }) => {
    writeFileSync(join(home, 'config.json'), JSON.stringify({ profiles: { sandbox: { mcp_allow: 'refunds,everything' } } }));
    const result = await run(['mcp', 'setup']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('profile "sandbox" mcp_allow: "everything" is not a group of money tools');
  });

  it('the key and overrides of this shell are never carried; the overrides are named', async ({ run }) => {
    const result = await run(['mcp', 'setup', '-o', 'json'], { PAYCTL_API_KEY: 'zpk_test_fromtheshell0000', PAYCTL_LEDGER_URL: 'postgres://u:pw@db/x' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(/zpk_|pw@|PAYCTL_API_KEY|PAYCTL_LEDGER_URL/);
    expect(result.stderr).toContain('PAYCTL_API_KEY, PAYCTL_LEDGER_URL are set in this shell but never written into a client\'s file');
  });
});

describe('payctl mcp setup --write', () => {
  it('into a fresh directory: the file and its directories made, the path on stdout', async ({ run, home, dirs }) => {
    for (const client of ['claude-code', 'cursor', 'vscode', 'claude-desktop']) {
      const result = await run(['mcp', 'setup', '--client', client, '--write', '-o', 'table']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(`created ${result.stdout.trim()} with the payctl server`);
    }
    expect(json(join(dirs.project, '.mcp.json'))).toEqual({ mcpServers: { payctl: { type: 'stdio', ...launch(home) } } });
    expect(json(join(dirs.project, '.cursor', 'mcp.json'))).toEqual({ mcpServers: { payctl: launch(home) } });
    expect(json(join(dirs.project, '.vscode', 'mcp.json'))).toEqual({ servers: { payctl: { type: 'stdio', ...launch(home) } } });
    expect(json(join(dirs.xdg, 'Claude', 'claude_desktop_config.json'))).toEqual({ mcpServers: { payctl: launch(home) } });
    expect(statSync(join(dirs.project, '.vscode')).mode & 0o777).toBe(0o755);
  });

  it('into a file with other servers and settings: they are kept, its indentation and mode too; twice: one entry', async ({ run, home, dirs }) => {
    const file = join(dirs.xdg, 'Claude', 'claude_desktop_config.json');
    mkdirSync(join(dirs.xdg, 'Claude'), { recursive: true });
    const theirs = { mcpServers: { files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/ana'] } }, preferences: { sidebarMode: 'chat' } };
    writeFileSync(file, JSON.stringify(theirs, null, 4));
    chmodSync(file, 0o600);
    const first = await run(['mcp', 'setup', '--client', 'claude-desktop', '--write', '-o', 'json']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ client: 'claude-desktop', file, action: 'added', kept: ['files'] });
    expect(first.stderr).toContain(`added the payctl server to ${file}; kept the other server (files) as it was`);
    const text = readFileSync(file, 'utf8');
    expect(JSON.parse(text)).toEqual({ ...theirs, mcpServers: { ...theirs.mcpServers, payctl: launch(home) } });
    expect(text).toMatch(/^\{\n {4}"mcpServers": \{\n {8}"files"/);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const second = await run(['mcp', 'setup', '--client', 'claude-desktop', '--write', '-o', 'json']);
    expect(JSON.parse(second.stdout)).toMatchObject({ action: 'unchanged' });
    expect(second.stderr).toContain('already has this payctl server; nothing was written');
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(readdirSync(join(dirs.xdg, 'Claude'))).toEqual(['claude_desktop_config.json']);
  });

  it('an earlier payctl entry is replaced, and what it was is said', async ({ run, home, dirs }) => {
    const file = join(dirs.project, '.mcp.json');
    const old = { command: 'payctl', args: ['mcp', '--profile', 'old'] };
    writeFileSync(file, JSON.stringify({ mcpServers: { payctl: old, other: { command: 'x' } } }));
    const result = await run(['mcp', 'setup', '--client', 'claude-code', '--write', '-o', 'json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ action: 'replaced', replaced: old, kept: ['other'] });
    expect(result.stderr).toContain(`replaced the payctl server in ${file}; kept the other server (other) as it was; it was ${JSON.stringify(old)}`);
    expect(json(file)).toEqual({ mcpServers: { payctl: { type: 'stdio', ...launch(home) }, other: { command: 'x' } } });
  });

  it('a file that is a link (dotfiles kept elsewhere): the file it points to is changed, the link stays', async ({ run, home, dirs }) => {
    const real = join(dirs.xdg, 'dotfiles-cursor.json');
    mkdirSync(dirs.xdg, { recursive: true });
    writeFileSync(real, '{"mcpServers": {}}\n');
    mkdirSync(join(dirs.project, '.cursor'));
    symlinkSync(real, join(dirs.project, '.cursor', 'mcp.json'));
    const result = await run(['mcp', 'setup', '--client', 'cursor', '--write']);
    expect(result.code, result.stderr).toBe(0);
    expect(lstatSync(join(dirs.project, '.cursor', 'mcp.json')).isSymbolicLink()).toBe(true);
    expect(json(real)).toEqual({ mcpServers: { payctl: launch(home) } });
  });

  it.for<[string, string, string]>([
    ['not JSON (a comment)', '{\n  // mine\n  "servers": {}\n}\n', 'is not valid JSON ('],
    ['an array', '[]', 'holds an array, not a JSON object'],
    ['servers that are not an object', '{"servers": ["a"]}', '"servers" holds an array, not an object of servers by name'],
  ])('a file payctl cannot read strictly (%s): an error naming it, the file untouched', async ([, text, said], { run, dirs }) => {
    const file = join(dirs.project, '.vscode', 'mcp.json');
    mkdirSync(join(dirs.project, '.vscode'));
    writeFileSync(file, text);
    const result = await run(['mcp', 'setup', '--client', 'vscode', '--write']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`error: ${file}`);
    expect(result.stderr).toContain(said);
    expect(result.stderr).toContain('nothing was written');
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(readdirSync(join(dirs.project, '.vscode'))).toEqual(['mcp.json']);
  });

  it('a directory that cannot be made: an error naming it, exit 2', async ({ run, dirs }) => {
    writeFileSync(join(dirs.project, '.cursor'), 'a file, not a directory');
    const result = await run(['mcp', 'setup', '--client', 'cursor', '--write']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`cannot write ${join(dirs.project, '.cursor', 'mcp.json')}: its directory ${join(dirs.project, '.cursor')} cannot be used`);
    expect(result.stderr).toContain('nothing was written');
  });

  it('no key in any file written, for a profile that holds one', async ({ run, home, dirs }) => {
    writeFileSync(join(home, 'config.json'), JSON.stringify({ current_profile: 'live', profiles: { live: { base_url: 'https://api.example.com', api_key: 'zpk_live_secretkey123456' } } }));
    for (const client of ['claude-code', 'claude-desktop', 'cursor', 'vscode']) {
      const result = await run(['mcp', 'setup', '--client', client, '--write'], { PAYCTL_API_KEY: 'zpk_live_fromtheshell123' });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout + result.stderr).not.toMatch(/secretkey|fromtheshell/);
    }
    const written = [join(dirs.project, '.mcp.json'), join(dirs.project, '.cursor', 'mcp.json'), join(dirs.project, '.vscode', 'mcp.json'), join(dirs.xdg, 'Claude', 'claude_desktop_config.json')];
    for (const file of written) {
      const text = readFileSync(file, 'utf8');
      expect(text).toContain('"--profile",');
      expect(text).toContain('"live"');
      expect(text).not.toMatch(/zpk_|api_key|PAYCTL_API_KEY|secretkey/i);
    }
  });

  it('needs --client', async ({ run, dirs }) => {
    const result = await run(['mcp', 'setup', '--write']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--write needs --client');
    expect(readdirSync(dirs.project)).toEqual([]);
  });

  it.for<[string, string]>([['CLAUDECODE', '1'], ['PAYCTL_ACTOR', 'agent'], ['CODEX_SANDBOX', 'seatbelt']])('refused to an AI agent\'s shell (%s): exit 4, nothing written; printing is allowed', async ([name, value], { run, dirs }) => {
    const refused = await run(['mcp', 'setup', '--client', 'cursor', '--write'], { [name]: value });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain(`error: an AI agent's shell (${name === 'PAYCTL_ACTOR' ? 'PAYCTL_ACTOR=agent' : `${name} is set`}) cannot write an MCP client's configuration`);
    expect(readdirSync(dirs.project)).toEqual([]);
    const printed = await run(['mcp', 'setup', '--client', 'cursor'], { [name]: value });
    expect(printed.code, printed.stderr).toBe(0);
  });
});
