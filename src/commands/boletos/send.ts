import type { Factory } from '../../factory.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { validateEmail, validateId } from '../../validate/index.js';
import { optionalString } from '../shared/input.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { send } from './flags.js';

/**
 * The provider e-mails a boleto to its buyer's address on file and its operation takes no body (a
 * body is refused with 415), so no other address can be asked for. `--to` is therefore a check:
 * the boleto's buyer is read first and nothing is sent unless the address on file is that one.
 */
async function checkRecipient(ctx: Factory, id: string, to: string): Promise<void> {
  const api = await ctx.api();
  const boleto = await api.call('boletos.get', { params: { id } });
  const buyerId = boleto.customer;
  if (!buyerId) throw new UsageError(`boleto ${id} names no buyer, so the service has no address to e-mail it to`);
  const buyer = await api.call('buyers.get', { params: { id: buyerId } });
  const onFile = buyer.email?.trim();
  if (onFile?.toLowerCase() === to.toLowerCase()) return;
  throw new CliError(
    `the service e-mails a boleto only to its buyer's address on file (${onFile ? onFile : 'none'}), not to ${to}; nothing was sent. ` +
      `Change it with 'payctl buyers update ${buyerId} --email ${to}', then send again`,
    ExitCode.usage,
  );
}

export async function run(ctx: Factory, args: ArgsOf<typeof send>, options: OptionsOf<typeof send>): Promise<void> {
  const id = validateId(args[0] ?? '', 'boleto id', '<id>');
  const given = optionalString(options.to);
  const to = given === undefined ? undefined : validateEmail(given, '--to');
  await ctx.service.requireApiKey();
  // With --to, the first request is the boleto's read, which a dry run shows and stops at.
  if (ctx.globals.dryRun && to === undefined) return ctx.service.printDryRun('boletos.send', { params: { id } });
  await ctx.service.noteSandbox();
  if (to !== undefined) await checkRecipient(ctx, id, to);
  const result = await (await ctx.api()).call('boletos.send', { params: { id } });
  await ctx.out.render(result);
  const sentTo = result.to ?? to;
  ctx.log.status(`Sent boleto ${id} by e-mail${sentTo ? ` to ${sentTo}` : " to the buyer's address"}`);
}
