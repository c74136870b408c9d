import type { Factory } from '../../factory.js';
import { asValidator } from '../../prompts/prompter.js';
import { validateTaxpayerId } from '../../validate/taxpayer.js';
import { missingInput, optionalString } from '../shared/input.js';
import type { Buyer } from './shared.js';
import { BUYER_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { search } from './flags.js';

export async function run(ctx: Factory, _args: ArgsOf<typeof search>, options: OptionsOf<typeof search>): Promise<void> {
  let raw = optionalString(options.taxpayerId);
  if (raw === undefined) {
    if (!ctx.interactive) throw missingInput(['--taxpayer-id']);
    raw = await (await ctx.prompter()).text('CPF or CNPJ', { validate: asValidator((v) => validateTaxpayerId(v)) });
  }
  const taxpayerId = validateTaxpayerId(raw, '--taxpayer-id');
  await ctx.requireApiKey();
  const buyer = await (await ctx.api()).call('buyers.search', { query: { taxpayer_id: taxpayerId } });
  await ctx.out.show(buyer, BUYER_VIEW);
}
