// Asking for what a command line left out, read off the verb's definition (verb.ts, missingOf):
// a required argument, or a required flag. On a terminal each is asked for in turn, an id as a
// choice among the latest of its resource (or typed, for a resource that has no list, or when
// the one wanted is not among them); with prompts off, the error names every one of them and says
// why nothing was asked. A typed answer is checked as its kind of value is checked (an amount, an
// e-mail, a CPF/CNPJ, a date, an id) and asked again when it is not one; the verb then reads the
// answers as if they had been given on the command line.
import type { Factory } from '../../factory.js';
import type { ApiClient } from '../../api/client.js';
import { formatDateTime, formatMoney } from '../../output/format.js';
import { sanitize } from '../../output/sanitize.js';
import { asValidator, type Choice } from '../../prompts/prompter.js';
import { centsToDecimalString, parseAmount, parseAmountCents, parseDate, validateBrazilianPhone, validateEmail, validateId } from '../../validate/index.js';
import { validateTaxpayerId } from '../../validate/taxpayer.js';
import { longFlag, type Ask, type Flag, type Missing } from '../verb.js';
import { checkWebhookUrl } from '../webhooks/shared.js';
import { missingInput } from './input.js';

/** How many of a resource's latest are offered to choose from. */
const LATEST = 10;

/** The least a typed answer is: not empty. */
const filled = (value: string): void => {
  if (value.trim() === '') throw new Error('enter a value');
};

/**
 * Asks for every one of `missing` (arguments onto `positional`, flags into `options`, each as the
 * command line would have given it); with prompts off, exit 2 naming them all and why.
 */
export async function askMissing(ctx: Factory, missing: Missing[], positional: string[], options: Record<string, unknown>): Promise<void> {
  if (!ctx.prompts.interactive) {
    const kinds = new Set(missing.map((m) => m.kind));
    throw missingInput(ctx, missing.map((m) => m.name), kinds.size > 1 ? 'input' : (missing[0] as Missing).kind);
  }
  for (const item of missing) {
    if (item.kind === 'argument') positional.push(await askArgument(ctx, item.ask, item.name));
    else {
      const answer = await askFlag(ctx, item.flag);
      options[item.key] = item.flag.parse ? (item.flag.parse as (value: string, previous: unknown) => unknown)(answer, item.flag.default) : answer;
    }
  }
}

// ---- Arguments -----------------------------------------------------------------------------------

/** What an argument names, when it is not a plain value: how it is asked for. */
interface Noun {
  /** The question when it is typed; default "Buyer id". */
  typed?: string;
  /** The check of a typed answer (default: an id of this noun). */
  check?: (value: string, name: string) => unknown;
  /** The ones to choose from: the latest of a resource (another one typed), or every value there is. */
  choices?: (ctx: Factory) => Promise<Choice<string>[]>;
  /** `choices` are every value there is: no other to type. */
  every?: boolean;
}

const money = (cents: unknown, currency: unknown) => (typeof cents === 'number' ? formatMoney(centsToDecimalString(cents), typeof currency === 'string' ? currency : undefined) : '');
const text = (value: unknown) => (typeof value === 'string' ? value : '');
const joined = (...parts: unknown[]) => sanitize(parts.map(text).filter(Boolean).join(' · '));

/**
 * The latest of a list, each named in words, its id shown under the list as it is highlighted.
 * `id`: the field that holds it (plans and subscriptions say uuid).
 */
function latest(operation: Parameters<ApiClient['call']>[0], name: (item: Record<string, unknown>) => string, id = 'id'): Noun['choices'] {
  return async (ctx) => {
    await ctx.service.requireApiKey();
    const page = await (await ctx.api()).call<{ items: Record<string, unknown>[] }>(operation, { query: { limit: LATEST } });
    return page.items.slice(0, LATEST).flatMap((item) => (typeof item[id] === 'string' ? [{ name: name(item) || (item[id] as string), value: item[id] as string, description: item[id] as string }] : []));
  };
}

const NOUNS: Record<string, Noun> = {
  // Support types what the customer quotes; a sale is too many among the latest to pick from.
  transaction: { typed: 'Transaction id or reference_id (order number)', check: filled },
  buyer: { choices: latest('buyers.list', (b) => joined([b.first_name, b.last_name].map(text).filter(Boolean).join(' '), b.email)) },
  seller: { choices: latest('sellers.list', (s) => joined(text(s.business_name) || [s.first_name, s.last_name].map(text).filter(Boolean).join(' '), s.email ?? s.business_email)) },
  plan: { choices: latest('plans.list', (p) => joined(p.name, `${money(p.amount, p.currency)} ${text(p.frequency)}`.trim(), p.status), 'uuid') },
  subscription: { choices: latest('subscriptions.list', (s) => joined(money(s.amount, s.currency), s.status, s.due_date && `next ${text(s.due_date)}`), 'uuid') },
  invoice: { choices: latest('invoices.list', (i) => joined(money(i.amount, i.currency), i.status, i.due_date && `due ${text(i.due_date)}`, i.description)) },
  transfer: { choices: latest('transfers.list', (t) => joined(typeof t.amount === 'string' ? formatMoney(t.amount, text(t.currency)) : '', t.status, t.transfer_date)) },
  webhook: { choices: latest('webhooks.list', (w) => joined(w.url, Array.isArray(w.events) ? w.events.join(',') : '')) },
  event: { choices: latest('events.list', (e) => joined(e.type, formatDateTime(text(e.created_at)))) },
  profile: {
    typed: 'Profile',
    check: filled,
    every: true,
    choices: async (ctx) => {
      const { SANDBOX_PROFILE } = await import('../../config/profile.js');
      const names = [SANDBOX_PROFILE, ...Object.keys((await ctx.config.file()).profiles).filter((n) => n !== SANDBOX_PROFILE).sort()];
      return names.map((name) => ({ name, value: name }));
    },
  },
  setting: {
    typed: 'Setting',
    check: filled,
    every: true,
    choices: async () => (await import('../../config/store.js')).PROFILE_KEYS.map((key) => ({ name: key, value: key })),
  },
  resource: {
    typed: 'Resource',
    check: filled,
    every: true,
    choices: async () => (await import('../export/resources.js')).EXPORT_RESOURCE_NAMES.map((name) => ({ name, value: name })),
  },
};

const capital = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

const nounOf = (ask: Ask): Noun | undefined => (ask.noun === undefined ? undefined : NOUNS[ask.noun] ?? {});

/** The value of a missing argument: chosen among the ones its noun offers, or typed. Also used by verbs whose argument is optional. */
export async function askArgument(ctx: Factory, ask: Ask, name: string): Promise<string> {
  const noun = nounOf(ask);
  // --dry-run sends nothing, not even the list to choose from.
  if (noun?.choices && !ctx.globals.dryRun) {
    const choices = await noun.choices(ctx).catch((err: unknown) => {
      ctx.log.warn(`could not list the ${ask.noun}s to choose from (${(err as Error).message}): type it`);
      return [];
    });
    if (choices.length > 0) {
      const other = '\u0000other';
      const chosen = await (await ctx.prompts.prompter()).select(capital(ask.label ?? ask.noun ?? name), noun.every ? choices : [...choices, { name: 'Another (type its id)', value: other }]);
      if (chosen !== other) return chosen;
    }
  }
  return askTyped(ctx.prompts, ask, name);
}

/**
 * The value of an argument typed at the terminal, checked as its noun's are and asked again when
 * it is not one: what a noun with nothing to choose from (a sale) needs of the Factory is its prompts.
 */
export async function askTyped(prompts: Pick<Factory['prompts'], 'prompter'>, ask: Ask, name: string): Promise<string> {
  const noun = nounOf(ask);
  const typed = ask.label ?? noun?.typed ?? (ask.noun === undefined ? capital(name.replace(/^<|>$/g, '').replace(/-/g, ' ')) : `${capital(ask.noun)} id`);
  const check = noun?.check ?? (ask.noun === undefined ? filled : (value: string) => validateId(value, `${ask.noun} id`, name));
  return (await prompts.prompter()).text(typed, { validate: asValidator((value) => check(value, name)) });
}

// ---- Flags ---------------------------------------------------------------------------------------

/** The checks of a typed value, by what a flag's help calls it (`--to <email>`). */
const CHECKS: Record<string, (value: string, flag: string) => unknown> = {
  amount: parseAmount,
  cents: parseAmountCents,
  email: validateEmail,
  'cpf|cnpj': validateTaxpayerId,
  phone: validateBrazilianPhone,
  'YYYY-MM-DD': parseDate,
  'https-url': checkWebhookUrl,
  n: (value, flag) => {
    if (!/^\d+$/.test(value) || Number(value) < 1) throw new Error(`${flag}: give a whole number of 1 or more`);
  },
};

/** A required flag's value: one of its choices, an id chosen or typed, or typed and checked as its kind of value is. */
async function askFlag(ctx: Factory, spec: Flag): Promise<string> {
  const label = capital(spec.ask ?? (spec.description ?? longFlag(spec)).replace(/ \(repeatable[^)]*\)/, ''));
  if (spec.choices) return (await ctx.prompts.prompter()).select(label, spec.choices.map((choice) => ({ name: choice, value: choice })));
  const value = /<([^>]+)>/.exec(spec.flags)?.[1] ?? '';
  const flag = longFlag(spec);
  if (value.endsWith('-id')) return askArgument(ctx, { noun: value.slice(0, -3), ...(spec.ask ? { label: spec.ask } : {}) }, flag);
  const check = CHECKS[value];
  return (await ctx.prompts.prompter()).text(label, { validate: asValidator((answer) => (check ?? filled)(answer, flag)) });
}
