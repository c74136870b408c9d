import type { Command, Option } from 'commander';
/** The "Examples:" block every --help ends with. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}

/**
 * Shows each named verb's required flags first, under "Required:" (the checks themselves are the
 * verb's own: a prompt may still ask for them on a terminal).
 */
export function requiredFirst(group: Command, required: Record<string, string[]>): void {
  for (const verb of group.commands) {
    const longs = required[verb.name()];
    if (!longs) continue;
    const options = verb.options as Option[];
    const first = longs.map((long) => options.find((o) => o.long === long)).filter((o): o is Option => o !== undefined);
    for (const option of first) option.helpGroup('Required:');
    options.splice(0, options.length, ...first, ...options.filter((o) => !first.includes(o)));
  }
}
