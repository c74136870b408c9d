import type { Operation } from '../../provider/endpoints.js';
import type { Factory } from '../../factory.js';
import { asValidator } from '../../prompts/prompter.js';
import { validateBrazilianPhone, validateEmail, validateId } from '../../validate/index.js';
import { missingInput, optionalString } from '../shared/input.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { email, sms } from './flags.js';

async function send(ctx: Factory, args: ArgsOf<typeof email | typeof sms>, options: OptionsOf<typeof email | typeof sms>, operation: Operation, check: (value: string) => string, ask: string, how: string) {
  const id = validateId(args[0] ?? '', 'receipt id', '<id>');
  let to = optionalString(options.to);
  if (to === undefined) {
    if (!ctx.interactive) throw missingInput(['--to']);
    to = await (await ctx.prompter()).text(ask, { validate: asValidator(check) });
  }
  const body = { to: check(to) };
  await ctx.requireApiKey();
  if (ctx.globals.dryRun) return ctx.printDryRun(operation, { params: { id }, body });
  await ctx.noteSandbox();
  await ctx.out.render(await (await ctx.api()).call(operation, { params: { id }, body }));
  ctx.log.status(`Sent receipt ${id} by ${how} to ${body.to}`);
}

export function runEmail(ctx: Factory, args: ArgsOf<typeof email>, options: OptionsOf<typeof email>): Promise<void> {
  return send(ctx, args, options, 'receipts.email', (v) => validateEmail(v, '--to'), 'E-mail address', 'e-mail');
}

export function runSms(ctx: Factory, args: ArgsOf<typeof sms>, options: OptionsOf<typeof sms>): Promise<void> {
  return send(ctx, args, options, 'receipts.sms', (v) => validateBrazilianPhone(v, '--to'), 'Mobile number (+55 and area code)', 'SMS');
}
