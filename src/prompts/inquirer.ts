import { confirm, input, password, select } from '@inquirer/prompts';
import { CancelledError } from '../errors.js';
import type { IO } from '../io.js';
import type { Prompter } from './prompter.js';

/**
 * The prompter bound to the run's streams. Prompts are drawn on stderr so stdout keeps only
 * results, even in an interactive session whose output is being captured.
 */
export function createInquirerPrompter(io: IO): Prompter {
  const context = { input: io.stdin, output: io.stderr, clearPromptOnDone: false };
  // Ctrl-C inside a prompt is a cancellation (exit 3), not a crash.
  const guard = async <T>(ask: () => Promise<T>): Promise<T> => {
    try {
      return await ask();
    } catch (err) {
      if ((err as Error)?.name === 'ExitPromptError' || (err as Error)?.name === 'AbortPromptError') {
        throw new CancelledError();
      }
      throw err;
    }
  };
  const prompter: Prompter = {
    text: (message, options = {}) =>
      guard(() =>
        input(
          {
            message,
            ...(options.default !== undefined ? { default: options.default } : {}),
            ...(options.validate ? { validate: options.validate } : {}),
          },
          context,
        ),
      ),
    secret: (message, options = {}) =>
      guard(() => password({ message, mask: '*', ...(options.validate ? { validate: options.validate } : {}) }, context)),
    select: (message, choices, options = {}) =>
      guard(() =>
        select(
          {
            message,
            choices,
            ...(options.default !== undefined ? { default: options.default } : {}),
          },
          context,
        ),
      ),
    confirm: (message, options = {}) =>
      guard(() =>
        confirm(
          {
            message,
            default: options.default ?? false,
            theme: { style: { defaultAnswer: (text: string) => `[${text}]` } },
          },
          context,
        ),
      ),
    async confirmOrCancel(message) {
      const yes = await prompter.confirm(message, { default: false });
      if (!yes) throw new CancelledError('cancelled: nothing was sent');
    },
  };
  return prompter;
}
