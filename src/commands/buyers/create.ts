import type { Factory } from '../../factory.js';
import { asValidator } from '../../prompts/prompter.js';
import { validateTaxpayerId } from '../../validate/taxpayer.js';
import { missingInput } from '../shared/input.js';
import { buyerBodyFromFlags, buyerName, type Buyer } from './shared.js';
import { BUYER_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { create } from './flags.js';

export async function run(ctx: Factory, _args: ArgsOf<typeof create>, options: OptionsOf<typeof create>): Promise<void> {
  await ctx.requireApiKey();
  const body = buyerBodyFromFlags(options);
  const missing = [body.first_name === undefined && '--first-name', body.taxpayer_id === undefined && '--taxpayer-id'].filter(
    (f): f is string => Boolean(f),
  );
  if (missing.length > 0) {
    if (!ctx.interactive) throw missingInput(missing);
    const prompter = await ctx.prompter();
    if (body.first_name === undefined) body.first_name = await prompter.text('First name', { validate: (v) => (v ? true : 'enter a name') });
    if (body.taxpayer_id === undefined) {
      body.taxpayer_id = validateTaxpayerId(await prompter.text('CPF or CNPJ', { validate: asValidator((v) => validateTaxpayerId(v)) }));
    }
  }
  if (ctx.globals.dryRun) return ctx.printDryRun('buyers.create', { body });
  await ctx.noteSandbox();
  const buyer = await (await ctx.api()).call('buyers.create', { body });
  await ctx.out.show(buyer, BUYER_VIEW);
  ctx.log.status(`Created buyer ${buyer.id} (${buyerName(buyer)})`);
}
