// Help fitted to the terminal: commander wraps its own columns at helpWidth, but the text a
// command adds (examples, notes) is written as it is, and a terminal breaks a long line wherever
// it runs out, mid-word (`e.g. id,s` / `tatus,amount`). Here every line longer than the width is
// wrapped at spaces, keeping its indentation; an example's command line (`  $ payctl …`) is
// wrapped between its words, never inside quotes, with a ` \` at each break, so that it can still
// be pasted into a shell as it is shown.

/** Words of a command line, a quoted string kept whole. */
function shellWords(line: string): string[] {
  return line.match(/(?:"[^"]*"|'[^']*'|[^\s"']+)+/g) ?? [];
}

function wrapWords(words: string[], width: number, first: string, next: string, joiner: string): string[] {
  const lines: string[] = [];
  let current = first;
  let empty = true;
  for (const word of words) {
    const candidate = empty ? `${current}${word}` : `${current} ${word}`;
    if (!empty && candidate.length + joiner.length > width) {
      lines.push(`${current}${joiner}`);
      current = `${next}${word}`;
    } else current = candidate;
    empty = false;
  }
  lines.push(current);
  return lines;
}

/** One line, fitted to `width`. */
function fitLine(line: string, width: number): string[] {
  if (line.length <= width) return [line];
  const example = /^(\s*\$ )(.*)$/.exec(line);
  if (example) {
    const [, prompt = '', command = ''] = example;
    const comment = command.indexOf(' # ');
    const code = comment >= 0 ? command.slice(0, comment) : command;
    const words = shellWords(code);
    if (comment >= 0) words.push(command.slice(comment + 1).trim());
    return wrapWords(words, width, prompt, ' '.repeat(prompt.length + 4), ' \\');
  }
  // Two columns (a term, two spaces or more, what it means): the meaning wraps under itself.
  const columns = /^(\s+\S.*?\s{2,})(\S.*)$/.exec(line);
  if (columns && (columns[1] as string).length < width / 2) {
    const hang = columns[1] as string;
    return wrapWords((columns[2] as string).split(/\s+/), width, hang, ' '.repeat(hang.length), '');
  }
  const indent = /^\s*/.exec(line)?.[0] ?? '';
  return wrapWords(line.trim().split(/\s+/), width, indent, indent, '');
}

/**
 * A paragraph of prose (lines of one indentation, none an example or a two-column row) that does
 * not fit is joined and wrapped whole, so that it reads evenly rather than in ragged pieces.
 */
function isProse(lines: string[]): boolean {
  const indent = /^\s*/.exec(lines[0] ?? '')?.[0] ?? '';
  return lines.every((l) => (/^\s*/.exec(l)?.[0] ?? '') === indent && !/^\s*\$ /.test(l) && !/^\s+\S.*?\s{2,}\S/.test(l) && !/:$/.test(l.trim()));
}

/** Help text with every line fitted to `width` columns. */
export function fitHelp(text: string, width: number): string {
  const out: string[] = [];
  let block: string[] = [];
  const flush = () => {
    if (block.length > 1 && block.some((l) => l.length > width) && isProse(block)) {
      const indent = /^\s*/.exec(block[0] as string)?.[0] ?? '';
      out.push(...wrapWords(block.join(' ').trim().split(/\s+/), width, indent, indent, ''));
    } else for (const line of block) out.push(...fitLine(line, width));
    block = [];
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      flush();
      out.push(line);
    } else block.push(line);
  }
  flush();
  return out.join('\n');
}
