import type { ArgsOf } from '../verb.js';
import type { completionVerb } from './flags.js';
import type { Factory } from '../../factory.js';
import { SANDBOX_PROFILE } from '../../config/profile.js';
import { UsageError } from '../../errors.js';
import { SCRIPT_FOR } from '../../completion/scripts.js';
import { treeOf } from '../../completion/tree.js';
import { writeOut } from '../../output/write.js';

export async function run(ctx: Factory, args: ArgsOf<typeof completionVerb>): Promise<void> {
  const shell = args[0];
  if (shell === 'profiles') {
    // Read by the scripts on every <Tab> after --profile: the config file only, nothing else.
    const config = await ctx.config.file();
    const names = [SANDBOX_PROFILE, ...Object.keys(config.profiles).filter((n) => n !== SANDBOX_PROFILE).sort()];
    await writeOut(ctx.io.stdout, `${names.join('\n')}\n`);
    return;
  }
  const generate = shell === undefined ? undefined : SCRIPT_FOR[shell];
  if (!generate) throw new UsageError(`<shell>: give bash, zsh or fish${shell === undefined ? '' : ` (not "${shell}")`}`);
  await writeOut(ctx.io.stdout, generate(treeOf(ctx.commandTree(), (await import('./values.js')).COMPLETION_VALUES)));
}
