import type { Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { examples } from '../shared/help.js';

export function registerCompletion(program: Command, action: ActionFactory, withVerbs = true): void {
  const command = program
    .command('completion')
    .description('Print a shell completion script (bash, zsh, fish) generated from the command tree')
    .argument('[shell]', 'bash, zsh or fish (or "profiles": the profile names, for the scripts)')
    .addHelpText(
      'after',
      examples(
        'payctl completion bash > ~/.local/share/bash-completion/completions/payctl',
        'payctl completion zsh > "${fpath[1]}/_payctl"',
        'payctl completion fish > ~/.config/fish/completions/payctl.fish',
      ),
    );
  if (!withVerbs) return;
  command.action(action(() => import('./run.js')));
}
