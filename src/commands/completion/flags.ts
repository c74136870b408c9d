import { arg, defineVerb } from '../verb.js';

export const completionVerb = defineVerb({
  name: 'completion',
  description: 'Print a shell completion script (bash, zsh, fish) generated from the command tree',
  args: [arg('[shell]', 'bash, zsh or fish (or "profiles": the profile names, for the scripts)')],
  examples: [
    'payctl completion bash > ~/.local/share/bash-completion/completions/payctl',
    'payctl completion zsh > "${fpath[1]}/_payctl"',
    'payctl completion fish > ~/.config/fish/completions/payctl.fish',
  ],
});
