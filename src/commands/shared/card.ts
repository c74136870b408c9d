import type { Factory } from '../../factory.js';
import { UsageError, ValidationError } from '../../errors.js';
import { asValidator } from '../../prompts/prompter.js';
import { validateCardNumber, validateCvv, validateExpiry } from '../../validate/card.js';
import { missingInput, optionalString, readInputFile } from './input.js';
import type { CardFlagValues } from './card-flags.js';

/** Card data as the API takes it. Lives in memory only: never written to disk, logs or journals. */
export interface CardInput {
  card_number: string;
  holder_name: string;
  expiration_month: string;
  expiration_year: string;
  security_code: string;
}

const CARD_FLAGS = {
  card_number: '--card-number',
  holder_name: '--holder-name',
  expiration_month: '--exp-month',
  expiration_year: '--exp-year',
  security_code: '--cvv',
} as const;

type CardField = keyof typeof CARD_FLAGS;

export function hasCardFlags(options: CardFlagValues): boolean {
  return [options.cardNumber, options.holderName, options.expMonth, options.expYear, options.cvv, options.cardFile].some((v) => v !== undefined);
}

/**
 * Card data from --card-file, from flags, or asked for on a terminal (hidden input for the number
 * and CVV). Everything is checked before any request: digits and Luhn, expiry, CVV.
 */
export async function readCard(ctx: Factory, options: CardFlagValues): Promise<CardInput> {
  const partial = cardFromFlags(options);
  const file = optionalString(options.cardFile);
  if (file !== undefined) Object.assign(partial, parseCardFile(await readInputFile(ctx, file, '--card-file')));
  const missing = (Object.keys(CARD_FLAGS) as CardField[]).filter((k) => partial[k] === undefined);
  if (missing.length > 0) {
    if (!ctx.prompts.interactive || file !== undefined) {
      if (file !== undefined) throw new UsageError(`--card-file: missing ${missing.join(', ')}`);
      throw missingInput(ctx, missing.map((k) => CARD_FLAGS[k]));
    }
    await askForCard(ctx, partial, missing);
  }
  const card = checkCard(partial as Record<CardField, string>);
  ctx.secrets.add(card.card_number);
  ctx.secrets.add(card.security_code);
  return card;
}

/** The card the card flags give, as far as they give it; --card-file and those flags are refused together. */
function cardFromFlags(options: CardFlagValues): Partial<Record<CardField, string>> {
  const fromFlags: Partial<Record<CardField, string | undefined>> = {
    card_number: optionalString(options.cardNumber),
    holder_name: optionalString(options.holderName),
    expiration_month: optionalString(options.expMonth),
    expiration_year: optionalString(options.expYear),
    security_code: optionalString(options.cvv),
  };
  const partial: Partial<Record<CardField, string>> = {};
  for (const [key, value] of Object.entries(fromFlags)) if (value !== undefined) partial[key as CardField] = value;
  if (optionalString(options.cardFile) !== undefined && [options.cardNumber, options.holderName, options.expMonth, options.expYear, options.cvv].some((v) => v !== undefined)) {
    throw new UsageError('use either --card-file or the card flags (--card-number, --cvv, …), not both');
  }
  return partial;
}

/**
 * The card flags' rules, from the command line alone: --card-file or the card flags, not both, and
 * a card whose five flags are all given checked as readCard checks it (a file is read, and what
 * flags leave out asked for, when the verb runs).
 */
export function checkCardFlags(options: CardFlagValues): void {
  const partial = cardFromFlags(options);
  if ((Object.keys(CARD_FLAGS) as CardField[]).every((k) => partial[k] !== undefined)) checkCard(partial as Record<CardField, string>);
}

export function checkCard(card: Record<CardField, string>): CardInput {
  const card_number = validateCardNumber(card.card_number, '--card-number');
  const holder_name = card.holder_name.trim();
  if (!holder_name) throw new ValidationError('--holder-name', 'the cardholder name is empty');
  const { month, year } = validateExpiry(card.expiration_month, card.expiration_year);
  const security_code = validateCvv(card.security_code, '--cvv');
  return { card_number, holder_name, expiration_month: month, expiration_year: year, security_code };
}

async function askForCard(ctx: Factory, partial: Partial<Record<CardField, string>>, missing: CardField[]): Promise<void> {
  const prompter = await ctx.prompts.prompter();
  for (const field of missing) {
    switch (field) {
      case 'card_number':
        partial.card_number = await prompter.secret('Card number', { validate: asValidator((v) => validateCardNumber(v)) });
        break;
      case 'holder_name':
        partial.holder_name = await prompter.text('Cardholder name', { validate: (v) => (v.trim() ? true : 'enter the name printed on the card') });
        break;
      case 'expiration_month':
        partial.expiration_month = await prompter.text('Expiry month (MM)', {
          validate: (v) => (/^(0?[1-9]|1[0-2])$/.test(v.trim()) ? true : 'enter a month from 01 to 12'),
        });
        break;
      case 'expiration_year':
        partial.expiration_year = await prompter.text('Expiry year (YYYY)', {
          validate: asValidator((v) => validateExpiry(partial.expiration_month ?? '12', v)),
        });
        break;
      case 'security_code':
        partial.security_code = await prompter.secret('CVV', { validate: asValidator((v) => validateCvv(v)) });
        break;
    }
  }
}

function parseCardFile(text: string): Partial<Record<CardField, string>> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new UsageError('--card-file: not valid JSON (expected {"card_number", "holder_name", "expiration_month", "expiration_year", "security_code"})');
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new UsageError('--card-file: expected a JSON object');
  const out: Partial<Record<CardField, string>> = {};
  for (const key of Object.keys(CARD_FLAGS) as CardField[]) {
    const value = (raw as Record<string, unknown>)[key];
    if (typeof value === 'string' || typeof value === 'number') out[key] = String(value);
  }
  return out;
}
