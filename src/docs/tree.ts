import type { Command, Option } from 'commander';

// What the command reference and the man pages are read from: the same command tree the CLI runs,
// so the documents cannot say something --help does not.

export interface Entry {
  /** The words after `payctl`, e.g. ["transactions", "splits", "add"]. */
  path: string[];
  command: Command;
}

/** Every command below `command`, depth first, in the order --help lists them (commander's own "help" left out). */
export function commandsOf(command: Command, path: string[] = []): Entry[] {
  return command.commands
    .filter((c) => c.name() !== 'help')
    .flatMap((c) => [{ path: [...path, c.name()], command: c }, ...commandsOf(c, [...path, c.name()])]);
}

/** A command that runs something, rather than a group of verbs. */
export function isVerb(command: Command): boolean {
  return command.commands.filter((c) => c.name() !== 'help').length === 0;
}

export function usageOf(entry: Entry): string {
  const usage = entry.command.createHelp().commandUsage(entry.command);
  return usage.startsWith('payctl') ? usage : `payctl ${usage}`;
}

export interface OptionLine {
  flags: string;
  description: string;
  required: boolean;
}

/** A command's own options as --help shows them (help itself left out). */
export function optionsOf(command: Command): OptionLine[] {
  const help = command.createHelp();
  return help
    .visibleOptions(command)
    .filter((o: Option) => o.long !== '--help')
    .map((o: Option) => ({ flags: help.optionTerm(o), description: help.optionDescription(o), required: o.helpGroupHeading === 'Required:' }));
}

export interface AfterHelp {
  examples: string[];
  /** Paragraphs said besides the examples, each one line. */
  notes: string[];
}

/** The text a command adds after its options: its examples, and what else it says. */
export function afterHelpOf(command: Command): AfterHelp {
  let text = '';
  const emitter = command as unknown as { listeners(event: string): Array<(ctx: { write(text: string): void; command: Command }) => void> };
  for (const listener of emitter.listeners('afterHelp')) listener({ write: (t) => (text += t), command });
  const examples: string[] = [];
  const notes: string[] = [];
  for (const block of text.split(/\n\s*\n/).map((b) => b.trim()).filter((b) => b !== '')) {
    const lines = block.split('\n');
    if (lines[0] === 'Examples:') {
      examples.push(...lines.slice(1).map((l) => l.trim().replace(/^\$ /, '')));
    } else {
      notes.push(lines.map((l) => l.trim()).join(' '));
    }
  }
  return { examples, notes };
}
