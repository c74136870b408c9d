import type { IO } from '../io.js';
import { agentSignal } from '../platform/agent.js';

/**
 * Why nothing may be asked in this run, in words ("stdin is not a terminal; --no-input was
 * given"), every reason that holds; undefined when a person is there to answer: --no-input absent,
 * both stdin and stdout terminals, and no AI agent's shell.
 */
export function whyPromptsAreOff(input: boolean, io: Pick<IO, 'stdinIsTTY' | 'stdoutIsTTY' | 'env'>): string | undefined {
  const reasons: string[] = [];
  if (!input) reasons.push('--no-input was given');
  const agent = agentSignal(io.env);
  if (agent !== undefined) reasons.push(`this is an AI agent's shell, ${agent}`);
  if (!io.stdinIsTTY && !io.stdoutIsTTY) reasons.push('neither stdin nor stdout is a terminal');
  else if (!io.stdinIsTTY) reasons.push('stdin is not a terminal');
  else if (!io.stdoutIsTTY) reasons.push('stdout is not a terminal');
  return reasons.length === 0 ? undefined : reasons.join('; ');
}
