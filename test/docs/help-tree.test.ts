import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { generatedDocs, MAN_DIR, manField } from '../../src/docs/generate.js';
import { helpText, helpTree } from '../../src/docs/help-tree.js';
import { VERSION } from '../../src/version.js';
import type { IO } from '../../src/io.js';
import { payctl, tempHome } from '../helpers/run.js';

// The help of every command, as users see it: snapshotted, so any change to it shows in review;
// checked for a purpose line and real examples; and the command reference and man pages generated from it.
const io: IO = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, env: {} };
const program = buildProgram({ io });

function all(command: Command, path: string[] = []): Array<{ path: string; command: Command }> {
  return command.commands.filter((c) => c.name() !== 'help').flatMap((c) => [{ path: [...path, c.name()].join(' '), command: c }, ...all(c, [...path, c.name()])]);
}

describe('the help tree', () => {
  it('matches its snapshot (update with `npx vitest run test/docs -u` and review the diff)', async () => {
    await expect(helpTree(program)).toMatchFileSnapshot('./__snapshots__/help-tree.txt');
  });

  it('every command: a one-line purpose and two or more real examples', () => {
    const commands = all(program);
    expect(commands.length).toBeGreaterThan(90);
    for (const { path, command } of commands) {
      const description = command.description();
      expect(description, path).not.toBe('');
      expect(description.includes('\n'), path).toBe(false);
      const examples = helpText(command).split('\nExamples:\n')[1] ?? '';
      const lines = examples.split('\n').filter((l) => l.startsWith('  $ payctl'));
      expect(lines.length, `${path} has ${lines.length} example(s)`).toBeGreaterThanOrEqual(2);
    }
  });

  it('required flags come first, under their own heading', () => {
    const create = helpText(program.commands.find((c) => c.name() === 'webhooks')!.commands.find((c) => c.name() === 'create')!);
    expect(create.indexOf('Required:\n  --url')).toBeGreaterThan(0);
    expect(create.indexOf('Required:')).toBeLessThan(create.indexOf('Options:'));
  });

  it('`payctl help <group>` lists the verbs, one line each', async () => {
    const home = tempHome();
    try {
      for (const group of ['transactions', 'transfers', 'webhooks', 'sandbox']) {
        const result = await payctl(['help', group], { home: home.home });
        expect(result.code).toBe(0);
        const listing = result.stdout.split('Commands:\n')[1]!.split('\n\n')[0]!.split('\n');
        const verbs = program.commands.find((c) => c.name() === group)!.commands.map((c) => c.name());
        // One line a verb (and commander's own "help" line): nothing wraps onto a second.
        expect(listing.map((l) => l.trim().split(/[ [<]/)[0])).toEqual([...verbs, 'help']);
      }
    } finally {
      home.cleanup();
    }
  });

});

describe('the command reference and the man pages (`npm run docs`)', () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const files = generatedDocs(program, VERSION);
  const stale = (path: string) => `${path} is not what the command tree generates: run \`npm run docs\` and commit the result`;

  it('the committed files are what the command tree generates', () => {
    for (const [path, text] of files) {
      expect(existsSync(`${root}${path}`), stale(path)).toBe(true);
      expect(readFileSync(`${root}${path}`, 'utf8') === text, stale(path)).toBe(true);
    }
    const pages = readdirSync(`${root}${MAN_DIR}`).map((name) => `${MAN_DIR}/${name}`);
    expect(pages.filter((path) => !files.has(path)), 'man pages of no command: run `npm run docs`').toEqual([]);
  });

  it('package.json installs every man page and ships them', () => {
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
    expect(pkg.man, stale('package.json "man"')).toEqual(manField(files));
    expect(pkg.files).toContain(MAN_DIR);
  });

  it('the same on every run: no dates, the package version', () => {
    expect(generatedDocs(buildProgram({ io }), VERSION)).toEqual(files);
    expect(files.get(`${MAN_DIR}/payctl.1`)).toContain(`.TH PAYCTL 1 "" "payctl ${VERSION}"`);
    // The headers (where a date would go) name the version and no day.
    for (const text of files.values()) expect(text.split('\n').slice(0, 4).join('\n')).not.toMatch(/\d{4}-\d\d-\d\d|\b20\d\d\b/);
  });

  it('every command is in payctl.1, the reference and its own page; payctl.1 points at every page and guide', () => {
    const root1 = files.get(`${MAN_DIR}/payctl.1`) as string;
    const reference = files.get('docs/reference/commands.md') as string;
    for (const { path, command } of all(program)) {
      expect(root1.replace(/\\-/g, '-'), path).toContain(`.B payctl ${path}`);
      expect(reference, path).toContain(`payctl ${path}\n`);
      const top = path.split(' ')[0] as string;
      const page = files.get(`${MAN_DIR}/payctl-${top}.1`) as string;
      expect(page, path).toBeDefined();
      if (command.commands.length === 0) expect(page.replace(/\\-/g, '-'), path).toContain(command.description().replace(/\\/g, '\\e').slice(0, 30));
    }
    for (const group of program.commands.filter((c) => c.name() !== 'help')) expect(root1).toContain(`.BR payctl\\-${group.name().replace(/-/g, '\\-')} (1)`);
    for (const guide of ['support', 'refunds-and-bulk', 'approvals', 'agents', 'finance-and-exports', 'marketplace-and-splits', 'recurrence', 'webhooks', 'scripting', 'sandbox', 'design']) {
      expect(root1).toContain(`docs/${guide.replace(/-/g, '\\-')}.md`);
      expect(existsSync(`${root}docs/${guide}.md`), guide).toBe(true);
    }
  });
});

describe('the guides', () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const guides = readdirSync(`${root}docs`).filter((name) => name.endsWith('.md'));

  it('the README links every guide and the command reference, and stays short', () => {
    const readme = readFileSync(`${root}README.md`, 'utf8');
    for (const guide of guides) expect(readme, guide).toContain(`](docs/${guide})`);
    expect(readme).toContain('](docs/reference/commands.md)');
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('each starts with whom it is for, and every link between them lands on a heading', () => {
    const anchors = new Map<string, Set<string>>();
    const text = new Map<string, string>();
    for (const file of [...guides.map((g) => `docs/${g}`), 'README.md', 'docs/reference/commands.md']) {
      const body = readFileSync(`${root}${file}`, 'utf8');
      text.set(file, body);
      const prose = body.replace(/^```[\s\S]*?^```/gm, '');
      anchors.set(file, new Set([...prose.matchAll(/^#{1,6} (.+)$/gm)].map((m) => (m[1] as string).trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-'))));
    }
    for (const guide of guides) expect(text.get(`docs/${guide}`)!.split('\n')[2], guide).toMatch(/^For /);
    for (const [file, body] of text) {
      for (const [, target, anchor] of body.matchAll(/\]\(([\w./-]*?\.md|)(?:#([^)]+))?\)/g)) {
        const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
        const to = target ? new URL(target, `file:///${dir}`).pathname.slice(1) : file;
        expect(existsSync(`${root}${to}`), `${file} links ${to}`).toBe(true);
        if (anchor) expect(anchors.get(to), `${file} links ${to}#${anchor}`).toContain(anchor);
      }
    }
  });
});
