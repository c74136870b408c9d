import type { Operation } from '../../provider/endpoints.js';
import type { Factory } from '../../factory.js';
import { validateBrazilianPhone, validateEmail, validateId } from '../../validate/index.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { email, sms } from './flags.js';

/** The receipt <id> and --to are required: given, or asked for on a terminal, before this runs. */
async function send(ctx: Factory, args: ArgsOf<typeof email | typeof sms>, options: OptionsOf<typeof email | typeof sms>, operation: Operation, check: (value: string) => string, how: string) {
  const id = validateId(args[0] ?? '', 'receipt id', '<id>');
  const body = { to: check(options.to ?? '') };
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) return ctx.service.printDryRun(operation, { params: { id }, body });
  await ctx.service.noteSandbox();
  await ctx.out.render(await (await ctx.api()).call(operation, { params: { id }, body }));
  ctx.log.status(`Sent receipt ${id} by ${how} to ${body.to}`);
}

export function runEmail(ctx: Factory, args: ArgsOf<typeof email>, options: OptionsOf<typeof email>): Promise<void> {
  return send(ctx, args, options, 'receipts.email', (v) => validateEmail(v, '--to'), 'e-mail');
}

export function runSms(ctx: Factory, args: ArgsOf<typeof sms>, options: OptionsOf<typeof sms>): Promise<void> {
  return send(ctx, args, options, 'receipts.sms', (v) => validateBrazilianPhone(v, '--to'), 'SMS');
}
