import { writeFile } from 'node:fs/promises';
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { validateId } from '../../validate/index.js';
import { optionalString } from '../shared/input.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { render } from './flags.js';

/**
 * The receipt's HTML. Piped, it goes to stdout like any result; on a terminal, raw HTML would only
 * flood the screen, so it is written to a file and the path is printed instead.
 */
export async function run(ctx: Factory, args: ArgsOf<typeof render>, options: OptionsOf<typeof render>): Promise<void> {
  const id = validateId(args[0] ?? '', 'receipt id', '<id>');
  await ctx.service.requireApiKey();
  const { text } = await (await ctx.api()).callText('receipts.render', { params: { id } });
  const save = optionalString(options.save) ?? (ctx.io.stdoutIsTTY ? `receipt-${id}.html` : undefined);
  if (save === undefined) {
    ctx.io.stdout.write(text);
    return;
  }
  try {
    await writeFile(save, text);
  } catch (err) {
    throw new UsageError(`--save: cannot write ${save} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (ctx.io.stdoutIsTTY) ctx.io.stdout.write(`${save}\n`);
  ctx.log.status(`Saved receipt ${id} to ${save}`);
}
