import type { Command, Option } from 'commander';

// The command tree as completion scripts (and the generated command reference) need it, read off
// the very commander program the CLI runs, so neither can drift from what payctl accepts.

export interface FlagSpec {
  long: string;
  short?: string;
  takesValue: boolean;
  choices?: string[];
  description: string;
}

export interface CommandSpec {
  name: string;
  /** What its first argument completes to, when that is a fixed set (`export <resource>`). */
  args?: string[];
  aliases: string[];
  description: string;
  flags: FlagSpec[];
  verbs: CommandSpec[];
}

export interface TreeSpec {
  globals: FlagSpec[];
  commands: CommandSpec[];
  /** What `help` completes besides the commands. */
  helpTopics: string[];
}

/** The fixed sets of values a flag or an argument takes, which commander does not know (commands/completion/values.ts). */
export interface CompletionValues {
  flag(path: string, long: string): string[] | undefined;
  argument(path: string): string[] | undefined;
  helpTopics: string[];
}

const NO_VALUES: CompletionValues = { flag: () => undefined, argument: () => undefined, helpTopics: [] };

function flagOf(option: Option, path: string, values: CompletionValues): FlagSpec | undefined {
  if (!option.long || option.hidden) return undefined;
  const flag: FlagSpec = { long: option.long, takesValue: option.required || option.optional, description: option.description ?? '' };
  if (option.short) flag.short = option.short;
  const choices = option.argChoices && option.argChoices.length > 0 ? [...option.argChoices] : flag.takesValue ? values.flag(path, option.long) : undefined;
  if (choices) flag.choices = choices;
  return flag;
}

function commandOf(command: Command, values: CompletionValues, parent = ''): CommandSpec {
  const path = `${parent} ${command.name()}`.trim();
  const spec: CommandSpec = {
    name: command.name(),
    aliases: command.aliases(),
    description: command.description(),
    flags: command.options.map((o) => flagOf(o, path, values)).filter((f): f is FlagSpec => f !== undefined),
    verbs: command.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden && c.name() !== 'help').map((c) => commandOf(c, values, path)),
  };
  const args = values.argument(path);
  if (args) spec.args = args;
  return spec;
}

export function treeOf(program: Command, values: CompletionValues = NO_VALUES): TreeSpec {
  const globals = program.options.map((o) => flagOf(o, '', values)).filter((f): f is FlagSpec => f !== undefined);
  // Help is every command's; version only the program's: both complete like the rest.
  globals.push({ long: '--help', short: '-h', takesValue: false, description: 'show help' });
  return { globals, commands: program.commands.filter((c) => c.name() !== 'help').map((c) => commandOf(c, values)), helpTopics: values.helpTopics };
}
