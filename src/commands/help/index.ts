import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { IO } from '../../io.js';
import { examples } from '../shared/help.js';
import { fitHelp } from '../shared/help-wrap.js';

/**
 * What `payctl help <topic>` knows besides the commands, each with the line that says what it
 * covers (the root --help and the man page list them); the texts are in topics.ts.
 */
export const HELP_TOPIC_SUMMARIES = {
  environment: 'the environment variables payctl reads',
  'exit-codes': 'what each exit code means',
  'exactly-once': 'how money moves exactly once, for one operator or a whole team',
  output: 'formats, --output, --fields, --group-by, CSV, colour, the pager; stdout and stderr',
  sandbox: 'the embedded sandbox: what it is, sandbox serve and generate, its state, reset',
  files: 'every file and directory payctl reads or writes, and where',
  approvals: "the team's rules (policy) and approvals: who sets them, how a supervisor approves, what they protect against",
  agents: 'AI agents through MCP (payctl mcp): what an agent may do, setting up its client, approvals and limits, the threat model',
} as const;
type Topic = keyof typeof HELP_TOPIC_SUMMARIES;
export const HELP_TOPICS = Object.keys(HELP_TOPIC_SUMMARIES) as Topic[];

/**
 * `payctl help [words…]`: the help of any command, verbs included (`payctl help transactions
 * refund`), or a topic, fitted to `width` like every help. Replaces commander's own, which takes one word.
 */
export function registerHelp(program: Command, io: IO, width: number): void {
  program
    .command('help')
    .argument('[command...]', `a command, a group and its verb, or a topic: ${HELP_TOPICS.join(', ')}`)
    .description(`Show the help of a command or verb, or a topic: ${HELP_TOPICS.join(', ')}`)
    .summary(`Show the help of a command or verb, or a topic: ${HELP_TOPICS.join(', ')}`)
    .addHelpText('after', examples('payctl help transactions refund', 'payctl help environment', 'payctl help exit-codes', 'payctl help output', 'payctl help files'))
    .action(async (words: string[]) => {
      const topic = words[0] as Topic;
      if (words.length === 1 && HELP_TOPICS.includes(topic)) {
        // A topic that is a group too (sandbox) is the group's help, as for every group, then the topic
        // (the group's help ends in a blank line).
        const group = program.commands.find((c) => c.name() === topic);
        if (group) group.outputHelp();
        // Loaded when asked for: registering this command runs on every start-up.
        const [{ TOPICS }, { writeOut }] = await Promise.all([import('./topics.js'), import('../../output/write.js')]);
        await writeOut(io.stdout, fitHelp(TOPICS[topic](), width));
        return;
      }
      let command = program;
      for (const [i, word] of words.entries()) {
        const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
        if (!sub) throw await noHelp(command, words.slice(0, i + 1), i === 0);
        command = sub;
      }
      command.outputHelp();
    });
}

async function noHelp(parent: Command, words: string[], top: boolean): Promise<UsageError> {
  const { didYouMean } = await import('../../validate/closest.js');
  const word = words.at(-1) as string;
  const names = parent.commands.filter((c) => c.name() !== 'help').flatMap((c) => [c.name(), ...c.aliases()]);
  const suggestion = didYouMean(word, top ? [...names, ...HELP_TOPICS] : names);
  if (top) {
    return new UsageError(`no help for "${word}": not a command or topic${suggestion}; topics: ${HELP_TOPICS.join(', ')}; 'payctl --help' lists the commands`);
  }
  const path = words.slice(0, -1).join(' ');
  return new UsageError(`no help for "${words.join(' ')}": ${path} has no verb ${word}${suggestion}; 'payctl help ${path}' lists its verbs`);
}
