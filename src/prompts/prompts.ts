import { UsageError } from '../errors.js';
import type { IO } from '../io.js';
import { whyPromptsAreOff } from './off.js';
import type { Prompter } from './prompter.js';

/**
 * Asking the person at the terminal: whether anyone may be asked, the prompter (inquirer, loaded
 * on first use), and the question before money moves or things are removed.
 */
export class Prompts {
  private prompterCache?: Promise<Prompter>;

  constructor(
    private readonly io: IO,
    private readonly globals: { input: boolean; yes: boolean },
  ) {}

  /**
   * Prompts only when a person is there to answer: both ends are terminals, --no-input is absent
   * and no AI agent's shell runs this.
   */
  get interactive(): boolean {
    return this.off === undefined;
  }

  /** Why prompts are off in this run ("stdin is not a terminal"), for the messages that say so; undefined when they are on. */
  get off(): string | undefined {
    return whyPromptsAreOff(this.globals.input, this.io);
  }

  prompter(): Promise<Prompter> {
    this.prompterCache ??= import('./inquirer.js').then(({ createInquirerPrompter }) => createInquirerPrompter(this.io));
    return this.prompterCache;
  }

  /**
   * Asks before money moves or things are removed. --yes answers for the user; with prompts off
   * and no --yes, the command stops with exit 2 rather than guess. A question given as a function
   * is put together only when it is asked (it may read the names of what it is about).
   */
  async confirm(question: string | (() => Promise<string>), action: string): Promise<void> {
    if (this.globals.yes) return;
    const off = this.off;
    if (off !== undefined) throw new UsageError(`--yes required to ${action} when prompts are off (${off})`);
    const prompter = await this.prompter();
    await prompter.confirmOrCancel(typeof question === 'string' ? question : await question());
  }
}
