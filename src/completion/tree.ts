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
  aliases: string[];
  description: string;
  flags: FlagSpec[];
  verbs: CommandSpec[];
}

export interface TreeSpec {
  globals: FlagSpec[];
  commands: CommandSpec[];
}

function flagOf(option: Option): FlagSpec | undefined {
  if (!option.long || option.hidden) return undefined;
  const flag: FlagSpec = { long: option.long, takesValue: option.required || option.optional, description: option.description ?? '' };
  if (option.short) flag.short = option.short;
  if (option.argChoices && option.argChoices.length > 0) flag.choices = [...option.argChoices];
  return flag;
}

function commandOf(command: Command): CommandSpec {
  return {
    name: command.name(),
    aliases: command.aliases(),
    description: command.description(),
    flags: command.options.map(flagOf).filter((f): f is FlagSpec => f !== undefined),
    verbs: command.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden && c.name() !== 'help').map(commandOf),
  };
}

export function treeOf(program: Command): TreeSpec {
  const globals = program.options.map(flagOf).filter((f): f is FlagSpec => f !== undefined);
  // Help is every command's; version only the program's: both complete like the rest.
  globals.push({ long: '--help', short: '-h', takesValue: false, description: 'show help' });
  return { globals, commands: program.commands.filter((c) => c.name() !== 'help').map(commandOf) };
}
