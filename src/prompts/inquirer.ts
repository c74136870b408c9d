import { Writable } from 'node:stream';
import { confirm, input, password, select } from '@inquirer/prompts';
import { CancelledError } from '../errors.js';
import type { IO } from '../io.js';
import type { Prompter } from './prompter.js';

/**
 * The prompter bound to the run's streams. Prompts are drawn on stderr so stdout keeps only
 * results, even in an interactive session whose output is being captured.
 */
export function createInquirerPrompter(io: IO): Prompter {
  // Inquirer ends the output stream it is given when a prompt closes. Each prompt therefore gets a
  // fresh pass-through to stderr, so the next prompt (and any later error line) can still write.
  const context = () => ({ input: io.stdin, output: forwardTo(io.stderr), clearPromptOnDone: false });
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
    // Answers are trimmed: a stray space typed at a prompt is not a reason to refuse an amount.
    text: async (message, options = {}) => {
      const { validate } = options;
      const answer = await guard(() =>
        input(
          {
            message,
            ...(options.default !== undefined ? { default: options.default } : {}),
            ...(validate ? { validate: (value: string) => validate(value.trim()) } : {}),
          },
          context(),
        ),
      );
      return answer.trim();
    },
    secret: async (message, options = {}) => {
      const { validate } = options;
      const answer = await guard(() =>
        password({ message, mask: '*', ...(validate ? { validate: (value: string) => validate(value.trim()) } : {}) }, context()),
      );
      return answer.trim();
    },
    select: (message, choices, options = {}) =>
      guard(() =>
        select(
          {
            message,
            choices,
            ...(options.default !== undefined ? { default: options.default } : {}),
          },
          context(),
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
          context(),
        ),
      ),
    async confirmOrCancel(message) {
      const yes = await prompter.confirm(message, { default: false });
      if (!yes) throw new CancelledError('cancelled: nothing was sent');
    },
  };
  return prompter;
}

function forwardTo(target: NodeJS.WritableStream): Writable {
  const forward = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      target.write(chunk, (err) => callback(err ?? null));
    },
  });
  // Terminal size and kind, so prompts wrap and colour as the real stream would.
  const tty = target as Partial<{ columns: number; rows: number; isTTY: boolean }>;
  Object.assign(forward, { columns: tty.columns, rows: tty.rows, isTTY: tty.isTTY });
  return forward;
}
