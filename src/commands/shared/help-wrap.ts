import { wrapWords } from '../../output/wrap.js';

// Help fitted to the terminal. A terminal breaks a line that is too long wherever it runs out,
// mid-word (`e.g. id,s` / `tatus,amount`), so every help screen and topic is fitted here, between
// words, to the terminal's width: commander's own columns when it left them too wide (it stops
// wrapping when a description would get fewer than 40 columns), and the text a command adds
// (examples, notes, the topics) as it was written.
//
// Help text is read as items, each a first line and the lines that continue it (at the column its
// text hangs from): a paragraph, a numbered point (`  1. …`), a two-column row (a term, two
// spaces or more, what it means), or an example (`  $ payctl …`). An item that fits is left as it
// is; one that does not is joined and wrapped whole, so it reads evenly rather than in ragged
// pieces: a paragraph at its indentation, a point or a row's meaning under itself. A row whose
// term leaves too little room beside it puts its meaning on the lines under the term instead. An
// example's command line is wrapped between its words, never inside quotes, with a ` \` at each
// break, so that it can still be pasted into a shell as it is shown; its comment wraps as
// comment lines.

/** The fewest columns a row's meaning is given beside its term before it goes under it. */
const MIN_MEANING_WIDTH = 24;
/** How far a meaning put under its term (or an example's next line) is indented past it. */
const STEP = 4;

type Kind = 'prose' | 'row' | 'example';

interface Item {
  kind: Kind;
  /** The first line's text before its words: the indentation, a term and its spaces, `1. `, `$ `. */
  head: string;
  /** The column continuation lines start at. */
  hang: number;
  /** The lines as written. */
  lines: string[];
  /** The words after the head, of every line. */
  words: string[];
}

const EXAMPLE = /^(\s*\$ )(.*)$/;
const POINT = /^(\s*\d+\.\s+)(\S.*)$/;
const ROW = /^(\s+\S.*?\s{2,})(\S.*)$/;

const indentOf = (line: string) => (/^\s*/.exec(line) as RegExpExecArray)[0].length;
const wordsOf = (text: string) => text.trim().split(/\s+/).filter((w) => w !== '');

function startItem(line: string): Item {
  const example = EXAMPLE.exec(line);
  const match = example ?? POINT.exec(line) ?? ROW.exec(line);
  const kind: Kind = example ? 'example' : match && !POINT.test(line) ? 'row' : 'prose';
  const head = match ? (match[1] as string) : ' '.repeat(indentOf(line));
  return { kind, head, hang: head.length, lines: [line], words: wordsOf(match ? (match[2] as string) : line) };
}

/** Whether `line` goes on with `item`: it starts at the item's hang and does not start an item of its own. */
function continues(item: Item, line: string): boolean {
  if (item.kind === 'example' || indentOf(line) !== item.hang) return false;
  return !EXAMPLE.test(line) && !POINT.test(line) && !ROW.test(line);
}

/** Words of a command line, a quoted string kept whole. */
function shellWords(line: string): string[] {
  return line.match(/(?:"[^"]*"|'[^']*'|[^\s"']+)+/g) ?? [];
}

/** An example's command line, wrapped with ` \`; its comment after it, or under it as `# ` lines. */
function fitExample(item: Item, width: number): string[] {
  const command = item.words.join(' ');
  const hash = command.search(/(^|\s)#\s/);
  const code = hash >= 0 ? command.slice(0, hash) : command;
  const comment = hash >= 0 ? command.slice(hash).trim() : '';
  const next = ' '.repeat(item.head.length + STEP);
  const lines = wrapWords(shellWords(code), width, item.head, next, ' \\');
  if (comment === '') return lines;
  const last = lines.length - 1;
  if (`${lines[last] as string}  ${comment}`.length <= width) {
    lines[last] = `${lines[last] as string}  ${comment}`;
    return lines;
  }
  lines[last] = `${lines[last] as string} \\`;
  return [...lines, ...wrapWords(wordsOf(comment.slice(1)), width, `${next}# `, `${next}# `)];
}

function fitItem(item: Item, width: number): string[] {
  const tooWide = item.head.length > width - MIN_MEANING_WIDTH;
  // A row too wide for two columns goes under its term even when it fits: the rows of a list share
  // their term's width, so they all go the same way. So does a row with a word too long for the
  // room beside its term (a URL, a syntax such as <seller-id>:<amount|percent%>[,liable][,net]).
  const longest = Math.max(0, ...item.words.map((word) => word.length));
  if (item.kind === 'row' && (tooWide || item.head.length + longest > width)) {
    const indent = ' '.repeat(indentOf(item.head));
    const under = ' '.repeat(indent.length + STEP);
    return [...wrapWords(wordsOf(item.head), width, indent, indent), ...wrapWords(item.words, width, under, under)];
  }
  if (item.lines.every((line) => line.length <= width)) return item.lines;
  if (item.kind === 'example') return fitExample(item, width);
  if (tooWide) {
    // A numbered point or a paragraph indented too far for the width: from its own indentation.
    const indent = ' '.repeat(Math.min(indentOf(item.head), Math.max(0, width - MIN_MEANING_WIDTH)));
    return wrapWords([...wordsOf(item.head), ...item.words], width, indent, indent);
  }
  return wrapWords(item.words, width, item.head, ' '.repeat(item.hang));
}

/** Help text with every line fitted to `width` columns, no word broken (a word longer than a line keeps one of its own). */
export function fitHelp(text: string, width: number): string {
  const out: string[] = [];
  let item: Item | undefined;
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      if (item) out.push(...fitItem(item, width));
      item = undefined;
      out.push(line);
    } else if (item && continues(item, line)) {
      item.lines.push(line);
      item.words.push(...wordsOf(line));
    } else {
      if (item) out.push(...fitItem(item, width));
      item = startItem(line);
    }
  }
  if (item) out.push(...fitItem(item, width));
  return out.join('\n');
}
