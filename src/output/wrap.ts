// Text laid out between words for a terminal of a given width: a terminal breaks a line that is
// too long wherever it runs out, mid-word. Help (commands/shared/help-wrap.ts) and warnings use it.

/** Words laid out on lines of at most `width` (a longer word has a line of its own), `joiner` ending each line but the last. */
export function wrapWords(words: string[], width: number, first: string, next: string, joiner = ''): string[] {
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

/**
 * A message for a terminal `width` columns wide (undefined: not a terminal, left as it is): each of
 * its lines that does not fit is wrapped between words, what goes on starting under the text after
 * its `prefix` (`warning: `); a line that fits is left as it is.
 */
export function wrapMessage(prefix: string, message: string, width: number | undefined): string {
  if (width === undefined) return `${prefix}${message}`;
  const hang = ' '.repeat(prefix.length);
  return message
    .split('\n')
    .map((text, i) => {
      const first = i === 0 ? prefix : '';
      if (first.length + text.length <= width) return `${first}${text}`;
      return wrapWords(text.split(/\s+/).filter((w) => w !== ''), width, first, hang).join('\n');
    })
    .join('\n');
}
