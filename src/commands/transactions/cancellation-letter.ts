import { writeFile } from 'node:fs/promises';
import type { Factory } from '../../factory.js';
import { NetworkError, UsageError } from '../../errors.js';
import { optionalString } from '../shared/input.js';
import { transactionId } from './shared.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { cancellationLetter } from './flags.js';

export async function run(ctx: Factory, args: ArgsOf<typeof cancellationLetter>, options: OptionsOf<typeof cancellationLetter>): Promise<void> {
  const id = transactionId(args);
  const save = optionalString(options.save);
  await ctx.service.requireApiKey();
  const api = await ctx.api();
  const letter = await api.call('transactions.cancellationLetter', { params: { id } });
  if (save !== undefined) {
    if (!letter.url) throw new NetworkError(`the service gave no letter URL for transaction ${id}`);
    await download(letter.url, save, (await ctx.config.profile()).timeoutSeconds * 1000);
    ctx.log.status(`Saved the cancellation letter of transaction ${id} to ${save}`);
  }
  await ctx.out.render(letter);
}

/**
 * The letter sits at a pre-signed URL on another host: fetched without the API credentials,
 * which must never travel to a third party.
 */
async function download(url: string, path: string, timeoutMs: number): Promise<void> {
  let data: Buffer;
  const { Agent } = (await import('../../api/undici.js')).default;
  const agent = new Agent();
  try {
    const target = new URL(url);
    const response = await agent.request({
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: 'GET',
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    if (response.statusCode >= 300) {
      await response.body.dump();
      throw new NetworkError(`downloading the letter failed with HTTP ${response.statusCode}`);
    }
    data = Buffer.from(await response.body.arrayBuffer());
  } catch (err) {
    if (err instanceof NetworkError) throw err;
    throw new NetworkError(`could not download the letter from ${new URL(url).host}: ${(err as Error).message}`);
  } finally {
    await agent.close();
  }
  try {
    await writeFile(path, data);
  } catch (err) {
    throw new UsageError(`--save: cannot write ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}
