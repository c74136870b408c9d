import type { Command } from 'commander';
import { commandsOf } from './tree.js';

// The help of every command, read off the command tree the CLI runs, as users see it; the command
// reference and the man pages (reference.ts, man.ts) are read off the same tree.

/** What `payctl <path> --help` prints, at a fixed width so the text does not depend on the terminal. */
export function helpText(command: Command, width = 100): string {
  const settings = command.configureHelp();
  // A command that sets its own width (a group's list of verbs is never wrapped) keeps it.
  if (settings.helpWidth === undefined) command.configureHelp({ ...settings, helpWidth: width });
  let after = '';
  // The "Examples:" blocks are addHelpText('after') listeners: called here to collect their text.
  const emitter = command as unknown as { listeners(event: string): Array<(ctx: { write(text: string): void; command: Command }) => void> };
  for (const listener of emitter.listeners('afterHelp')) listener({ write: (t) => (after += t), command });
  return command.helpInformation() + after;
}

/** Every command's help, one after another: reviewed as a snapshot when anything changes. */
export function helpTree(program: Command): string {
  return [{ path: [] as string[], command: program }, ...commandsOf(program)]
    .map(({ path, command }) => `$ payctl${path.map((p) => ` ${p}`).join('')} --help\n${helpText(command)}`)
    .join('\n');
}
