import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { asValidator, type Validator } from '../../prompts/prompter.js';
import { validateEmail } from '../../validate/index.js';
import { missingInput } from '../shared/input.js';
import { cnpjFlag, cpfFlag, kindFromFlags, REQUIRED_FLAGS, sellerBodyFromFlags, sellerName, type Seller, type SellerKind } from './shared.js';
import { SELLER_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { create, SellerFlagValues } from './flags.js';

const WHO = 'say who the seller is: a person with --first-name, --last-name, --taxpayer-id <CPF> and --email, or a company with --business-name, --ein <CNPJ> and --email';

const filled: Validator = (v) => (v.trim() ? true : 'enter a value');

/** The question for each required field, checked as its flag is. */
const QUESTIONS: Record<string, { label: string; validate: Validator; value?: (v: string) => string }> = {
  first_name: { label: 'First name', validate: filled },
  last_name: { label: 'Last name', validate: filled },
  taxpayer_id: { label: 'CPF', validate: asValidator((v) => cpfFlag(v, '--taxpayer-id')), value: (v) => cpfFlag(v, '--taxpayer-id') },
  business_name: { label: 'Business name', validate: filled },
  ein: { label: 'CNPJ', validate: asValidator((v) => cnpjFlag(v, '--ein')), value: (v) => cnpjFlag(v, '--ein') },
  email: { label: 'E-mail', validate: asValidator((v) => validateEmail(v, '--email')) },
  business_email: { label: 'E-mail', validate: asValidator((v) => validateEmail(v, '--email')) },
};

/** On a terminal, what the flags leave out is asked for: the kind first, then each required field. */
async function ask(ctx: Factory, kind: SellerKind | undefined, options: SellerFlagValues): Promise<{ kind: SellerKind; body: Record<string, unknown> }> {
  const prompter = await ctx.prompts.prompter();
  const chosen =
    kind ??
    (await prompter.select<SellerKind>('Who is the seller', [
      { name: 'A person (CPF)', value: 'individual' },
      { name: 'A company (CNPJ)', value: 'business' },
    ]));
  const body = sellerBodyFromFlags(chosen, options);
  for (const [field] of REQUIRED_FLAGS[chosen]) {
    if (body[field] !== undefined) continue;
    const question = QUESTIONS[field] as (typeof QUESTIONS)[string];
    const answer = (await prompter.text(question.label, { validate: question.validate })).trim();
    body[field] = question.value ? question.value(answer) : answer;
  }
  return { kind: chosen, body };
}

export async function run(ctx: Factory, _args: ArgsOf<typeof create>, options: OptionsOf<typeof create>): Promise<void> {
  let kind = kindFromFlags(options);
  let body = kind === undefined ? undefined : sellerBodyFromFlags(kind, options);
  const missing = kind === undefined ? [] : REQUIRED_FLAGS[kind].filter(([field]) => body?.[field] === undefined).map(([, flag]) => flag);
  if (kind === undefined || missing.length > 0) {
    if (!ctx.prompts.interactive) throw kind === undefined ? new UsageError(`${WHO} (prompts are off: ${ctx.prompts.off})`) : missingInput(ctx, missing);
    ({ kind, body } = await ask(ctx, kind, options));
  }
  await ctx.service.requireApiKey();
  const operation = kind === 'individual' ? 'sellers.createIndividual' : 'sellers.createBusiness';
  if (ctx.globals.dryRun) return ctx.service.printDryRun(operation, { body });
  await ctx.service.noteSandbox();
  const seller = await (await ctx.api()).call<Seller>(operation, { body });
  await ctx.out.show(seller, SELLER_VIEW);
  ctx.log.status(`Created seller ${seller.id} (${sellerName(seller)})`);
}
