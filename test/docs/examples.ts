// The example commands of README.md and docs/*.md, read the way docs/design.md's "Examples that
// run" says (the convention lives there, where whoever writes a guide reads it):
//
//   - every command of a ```sh block (a line, with its `\` continuations), except `npm …` ones,
//     which build and test payctl itself (CI runs them);
//   - every inline code span that runs payctl with at least one argument (`payctl help sandbox`,
//     `payctl transactions get --fields help`); one that only names a command (`payctl export`)
//     is a name, not an example;
//   - `npx payctl …` and `node bin/payctl.js …` are payctl;
//   - a command with a placeholder is a synopsis, not run: `<id>`, `…`, an optional part in
//     brackets (`[--limit N]`) or alternatives (`get|current`);
//   - a ```sh command's comment may begin with what to expect of it: `# exit 12: …` (that exit
//     status, not 0), `# on a terminal: …` (it needs a person at a terminal: not run),
//     `# with your account: …` (it needs a live account, its key or its server: not run) or
//     `# until Ctrl-C: …` (it runs until stopped: started, left running while the commands after
//     it in its block run, then stopped with Ctrl-C, and must exit 0).
//
// Kept free of processes, so the fast lane can check the reading itself.

export type Expect = { kind: 'exit'; code: number } | { kind: 'terminal' } | { kind: 'account' } | { kind: 'background' };

export interface Example {
  /** Where it is written: `docs/support.md:143`. */
  where: string;
  file: string;
  line: number;
  /** As written, continuations joined, comment left out. */
  command: string;
  /** The ```sh block it is in (its first line), so a background command is stopped at the block's end; inline spans have none. */
  block?: number;
  expect: Expect;
  /** Why it is not run, when it is not: a placeholder, a person needed at a terminal, a live account. */
  notRun?: string;
  /** The shell variable it sets (`id=$(payctl …)`), for the commands after it. */
  sets?: string;
}

const PAYCTL = /^(?:npx payctl|node bin\/payctl\.js|payctl)(?=\s|$)/;

/** What marks a synopsis rather than a command: a placeholder, an optional part, alternatives. */
export function placeholderIn(code: string): string | undefined {
  const angle = /<[^<>\s][^<>]*>/.exec(code);
  if (angle && !/<<|<\(/.test(angle[0])) return angle[0];
  if (code.includes('…')) return '…';
  const optional = /(?:^|\s)(\[[^\]\s][^\]]*\])/.exec(code);
  if (optional) return optional[1];
  const alternatives = /(?:^|\s)((?:[\w-]+\|)+[\w-]+)(?=\s|$)/.exec(code.replace(/'[^']*'|"[^"]*"/g, "''"));
  if (alternatives) return alternatives[1];
  return undefined;
}

/** `code` and its comment: the comment starts at a `#` that begins a word outside quotes. */
export function splitComment(line: string): { code: string; comment?: string } {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return { code: line.slice(0, i).trimEnd(), comment: line.slice(i + 1).trim() };
  }
  return { code: line.trimEnd() };
}

/** What a ```sh command's comment says to expect of it. */
export function expectationOf(comment: string | undefined): Expect {
  const said = /^(?:exit (\d+)|(on a terminal)|(with your account)|(until Ctrl-C))(?::|$)/.exec(comment ?? '');
  if (!said) return { kind: 'exit', code: 0 };
  if (said[1] !== undefined) return { kind: 'exit', code: Number(said[1]) };
  if (said[2]) return { kind: 'terminal' };
  return said[3] ? { kind: 'account' } : { kind: 'background' };
}

/** The command as the shell runs it: `npx payctl` and `node bin/payctl.js` are payctl, on PATH. */
export function asRun(command: string): string {
  return command.replace(/(^|[\s|;&(])(?:npx payctl|node bin\/payctl\.js)(?=\s|$|\))/g, '$1payctl');
}

/**
 * Every example of one Markdown file, in the order written. `isName` says whether the words after
 * `payctl` of an inline span only name a command (a group, a verb): those are not examples.
 */
export function examplesOf(file: string, text: string, isName: (words: string[]) => boolean): Example[] {
  const lines = text.split('\n');
  const found: Example[] = [];
  const add = (line: number, code: string, comment: string | undefined, block?: number) => {
    const expect = expectationOf(comment);
    const placeholder = placeholderIn(code);
    const example: Example = { where: `${file}:${line}`, file, line, command: code, expect, ...(block === undefined ? {} : { block }) };
    if (placeholder !== undefined) example.notRun = `a placeholder (${placeholder})`;
    else if (expect.kind === 'terminal') example.notRun = 'it needs a person at a terminal';
    else if (expect.kind === 'account') example.notRun = 'it needs a live account';
    const sets = /^([A-Za-z_]\w*)=\$\(/.exec(code);
    if (sets) example.sets = sets[1]!;
    found.push(example);
  };
  let fence: { lang: string; start: number } | undefined;
  const prose: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marker = /^\s*(```+|~~~+)\s*([\w-]*)/.exec(line);
    if (marker) {
      fence = fence ? undefined : { lang: marker[2]!, start: i + 1 };
      prose.push('');
      continue;
    }
    if (!fence) {
      prose.push(line);
      continue;
    }
    prose.push('');
    if (fence.lang !== 'sh') continue;
    // One command: this line and its continuations; a comment may end any of them.
    const first = i + 1;
    const parts: string[] = [];
    const comments: string[] = [];
    for (;;) {
      const { code, comment } = splitComment(lines[i]!);
      if (comment !== undefined) comments.push(comment);
      const continued = code.endsWith('\\');
      parts.push((continued ? code.slice(0, -1) : code).trim());
      if (!continued || i + 1 >= lines.length) break;
      i++;
      prose.push('');
    }
    // The install before a first command (`npm install && npx payctl …`) is the reader's, not the example's.
    const code = parts.filter(Boolean).join(' ').replace(/^npm (?:install|ci)\s*&&\s*/, '');
    if (!code || /^npm(\s|$)/.test(code)) continue;
    add(first, code, comments[0], fence.start);
  }
  // Inline spans, which may wrap over a line end.
  const body = prose.join('\n');
  for (const span of body.matchAll(/(?<!`)`([^`]+)`(?!`)/g)) {
    const code = span[1]!.replace(/\s*\n\s*/g, ' ').trim();
    if (!PAYCTL.test(code)) continue;
    const words = asRun(code).split(/\s+/).slice(1);
    if (words.length === 0 || isName(words)) continue;
    add(body.slice(0, span.index).split('\n').length, code, undefined);
  }
  return found.sort((a, b) => a.line - b.line);
}

