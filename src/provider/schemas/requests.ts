// The bodies payctl sends, as the provider's file and the seed type them. Commands build a body
// from flags they have already checked one by one; this is the last look before anything leaves
// the machine, so a body that would be refused (a card number failing its Luhn digit, a CPF or CNPJ
// with wrong check digits, a date that is not on the calendar, money that is not whole cents) stops
// here with exit 2 and the flag to fix, never as a 400 from the service or, worse, an accepted
// mistake. Messages name the flag and what was expected, never the value (it may be a card number).

import * as z from 'zod/mini';
import type { Operation } from '../endpoints.js';
import { unknownEventTypes } from '../event-types.js';
import { luhnValid } from '../../validate/card.js';
import { dayOrInstantAt, instantAt, parseDate } from '../../validate/date.js';
import { validateEmail } from '../../validate/misc.js';
import { isValidCnpj, isValidCpf } from '../../validate/taxpayer.js';

/**
 * A check of the project's own (src/validate/), which throws a ValidationError, as a predicate: the
 * body is held to exactly the rules its flags were held to.
 */
const passes =
  (check: (value: string, flag: string) => unknown) =>
  (value: string): boolean => {
    try {
      check(value, '');
      return true;
    } catch {
      return false;
    }
  };

const id = z.string().check(z.regex(/^[^\s/?#]{1,128}$/, 'must be an id without spaces or slashes'));
const cents = z.int('must be a whole number of cents').check(z.minimum(1, 'must be at least 1 cent'), z.maximum(99_999_999_999, 'is too large'));
const centsOrZero = z.int('must be a whole number of cents').check(z.minimum(0, 'must not be negative'));
/** The seed and the provider's file say only "currency code" (a string): any case, the service upper-cases it. */
const currency = z.string().check(z.regex(/^[A-Za-z]{3}$/, 'must be a three-letter currency code like BRL'));
const date = z.string().check(z.refine(passes(parseDate), 'must be a calendar date YYYY-MM-DD'));
/**
 * A date the provider's file types as plain text and its own records carry as a date-time
 * ("2030-12-31 00:00:00+00:00"): a calendar date, or a date-time with its offset.
 */
const dateOrDateTime = z.string().check(z.refine((v) => passes(parseDate)(v) || isDateTime(v), 'must be a date (YYYY-MM-DD)'));
/** A date-time with its offset, on the calendar: "2030-12-31T09:30:00Z", "2030-12-31 00:00:00+00:00". */
const isDateTime = (value: string): boolean => instantAt(value) !== undefined;
/** A moment, never a local time: which moment that is depends on the machine's time zone. */
const dateTime = z.string().check(z.refine(isDateTime, 'must be an ISO 8601 date-time with offset'));
/** The day (UTC) of a date or date-time that has met dateOrDateTime, as the service keeps it. */
const dayOf = (value: string): string => (dayOrInstantAt(value.trim()) as Date).toISOString().slice(0, 10);
const taxpayerId = z.string().check(z.refine((v) => isValidCpf(v) || isValidCnpj(v), 'must be a CPF or CNPJ with matching check digits'));
const email = z.string().check(z.refine(passes(validateEmail), 'must be an e-mail address'));
/** The provider's SMS form: "+55", a two-digit area code, then an 8- or 9-digit number. */
const mobile = z.string('must be a string').check(
  z.minLength(1, { error: 'is required', abort: true }),
  z.maxLength(30, { error: 'must be at most 30 characters', abort: true }),
  z.refine((v) => /^\+55 ?\d{2} ?\d{8,9}$/.test(v.trim()), 'must be a Brazilian mobile number: +55, a 2-digit area code and 8 or 9 digits (+55 21999099999)'),
);
const text = z.string('must be text');
/** Text that may be sent as null to clear it. */
const optionalText = z.optional(z.nullable(text));
/** Text of at most `max` characters, or null for none: a description, a statement descriptor. */
const textOfAtMost = (max: number) => z.optional(z.nullable(z.string('must be a string').check(z.maxLength(max, `must be at most ${max} characters`))));
const filled = z.string().check(z.refine((v) => v.trim() !== '', 'must not be empty'));
/** Text values (the provider's file); null removes a key, since the service merges metadata. */
const metadata = z.record(z.string(), z.nullable(z.string('metadata values must be text')));

/**
 * A card as the tokenize and create-transaction bodies carry it. The seed and the provider's file
 * type the expiry as text only: a month with or without its leading zero, a year of 4 or 2 digits.
 * Other fields are kept as sent: a source's card carries its own share (`amount`, checked by the source).
 */
const cardData = z.looseObject({
  holder_name: z.string().check(z.refine((v) => v.trim() !== '', 'must not be empty')),
  card_number: z.string().check(z.refine((v) => /^\d{12,19}$/.test(v) && luhnValid(v), 'must be a card number of 12 to 19 digits that passes the Luhn check')),
  expiration_month: z.string().check(z.regex(/^(0?[1-9]|1[0-2])$/, 'must be a month 01 to 12')),
  expiration_year: z.string().check(z.regex(/^(\d{2}|\d{4})$/, 'must be a four-digit year')),
  security_code: z.string().check(z.regex(/^\d{3,4}$/, 'must be 3 or 4 digits')),
});

const installmentPlan = z.object({ number_installments: z.int().check(z.minimum(1), z.maximum(12, 'must be 1 to 12 installments')) });

const stateCode = z.string().check(z.regex(/^[A-Za-z]{2}$/, 'must be a two-letter state code'));
const cep = z.string().check(z.regex(/^\d{5}-?\d{3}$/, 'must be a CEP like 01310-100'));
const addressCodes = { state: z.optional(z.nullable(stateCode)), postal_code: z.optional(z.nullable(cep)) };
/** A buyer's or seller's address: any of its lines (text, null to clear one); a country code of two letters. */
const addressPatch = z.looseObject({
  ...addressCodes,
  line1: optionalText,
  line2: optionalText,
  line3: optionalText,
  neighborhood: optionalText,
  city: optionalText,
  country_code: z.optional(z.nullable(z.string().check(z.refine((v) => v.trim() === '' || /^[A-Za-z]{2}$/.test(v.trim()), 'must be a two-letter country code')))),
});

/** A complete boleto prints its payer's address, so every line a boleto needs is there. */
const boletoAddress = z.looseObject({ line1: filled, city: filled, state: stateCode, postal_code: cep }, 'must be an object');
/** The payer of a complete boleto, whom the service registers as a buyer: a name and a document. */
const payer = z.looseObject(
  { first_name: filled, last_name: filled, taxpayer_id: taxpayerId, email: z.optional(email), birthdate: z.optional(date), address: z.optional(boletoAddress) },
  'must be an object',
);

/** One part of a sale for another seller: a fixed amount in cents, or a percentage (with its cents). */
const splitRule = z.object({
  // A seller id as the CLI checks it (--split): at most 64 characters.
  recipient: id.check(z.maxLength(64, 'must be at most 64 characters')),
  liable: z.optional(z.boolean()),
  charge_processing_fee: z.boolean(),
  // The provider's file requires the amount in every variant; a percentage part carries both.
  amount: centsOrZero,
  // Hundredths of a percent at most, as --split takes it.
  percentage: z.optional(
    z.number().check(z.gt(0, 'must be above 0%'), z.lte(100, 'must be at most 100%'), z.refine((v) => /^\d{1,3}(\.\d{1,2})?$/.test(String(v)), 'must have at most two decimals')),
  ),
}).check(z.refine((r) => r.percentage !== undefined || r.amount > 0, 'a fixed part must be at least 1 cent'));

/** Seed 4.1 sends a boleto's amount as numeric text ("1050"): whole cents all the same. */
const centsOrCentsText = z.union(
  [cents, z.string().check(z.refine((v) => /^\d{1,11}$/.test(v) && cents.safeParse(Number(v)).success, 'must be a whole number of cents'))],
  'must be a whole number of cents',
);
/** Seed 4.1: the text "true" or "false"; the provider's file: a boolean. */
const captureFlag = z.union([z.boolean(), z.enum(['true', 'false'])], 'must be true or false');

const notNegative = z.optional(z.number('must be a non-negative number').check(z.minimum(0, 'must be a non-negative number')));
/** A boleto's fee, interest or discount (null for none): one of its modes, an amount or a percentage not below zero. */
const boletoCharge = (modes: readonly [string, ...string[]], more: Record<string, z.ZodMiniType> = {}) =>
  z.nullable(z.looseObject({ mode: z.optional(z.enum(modes, `must be one of ${modes.join(', ')}`)), amount: notNegative, percentage: notNegative, ...more }, 'must be an object'));
/** A complete boleto's billing instructions (seed 2.2): a late fee, interest, and discounts until given dates. */
const billingInstructions = z.looseObject(
  {
    late_fee: z.optional(boletoCharge(['FIXED', 'PERCENTAGE'])),
    interest: z.optional(boletoCharge(['DAILY_AMOUNT', 'DAILY_PERCENTAGE', 'MONTHLY_PERCENTAGE'])),
    discount: z.optional(z.array(boletoCharge(['FIXED', 'PERCENTAGE']), 'must be an array')),
  },
  'must be an object',
);
/** The lines printed on a boleto: five at most. */
const bodyInstructions = z.array(z.string('must be an array of strings'), 'must be an array of strings').check(z.maxLength(5, 'may hold at most 5 lines'));
/** A bolepix's interest, charged by the day, month or year. */
const bolepixInterest = boletoCharge(['PERCENTAGE', 'FIXED'], {
  frequency: z.optional(z.enum(['DAILY', 'MONTHLY', 'ANNUALLY'], 'must be one of DAILY, MONTHLY, ANNUALLY')),
});

/** A stored card by id ({"id": …}), or the card's data; never both. */
const cardChoice = z.union([z.looseObject({ id }), cardData], 'must be card data, or {"id": …} of a stored card').check(
  z.refine((card) => !('id' in card && 'card_number' in card), 'give either a card id or card data, not both'),
);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const given = (value: unknown): boolean => value !== undefined && value !== null;

/**
 * What each variant of the provider's file requires beyond the fields' own types: the amount and
 * currency at the top level or, in seed 4.1's direct authorization, inside `source` (both places
 * must agree); a card sale's source or customer; a boleto's customer, or a complete boleto's payer
 * (payment_method.buyer); a bolepix's customer. Checked even when fields are wrong too, so one
 * answer names every field at fault.
 */
const transactionVariant = z.superRefine(
  (body: unknown, ctx) => {
    if (!isRecord(body)) return;
    const problem = (path: string[], message: string) => ctx.issues.push({ code: 'custom', message, path, input: body });
    const source = !['boleto', 'bolepix', 'pix'].includes(String(body.payment_type)) && isRecord(body.source) ? body.source : {};
    for (const name of ['amount', 'currency'] as const) {
      if (!given(body[name]) && !given(source[name])) problem([name], 'is required');
    }
    if (given(body.amount) && given(source.amount) && Number(body.amount) !== Number(source.amount)) problem(['source', 'amount'], 'disagrees with amount');
    if (typeof body.currency === 'string' && typeof source.currency === 'string' && body.currency.toUpperCase() !== source.currency.toUpperCase()) {
      problem(['source', 'currency'], 'disagrees with currency');
    }
    const customer = given(body.customer);
    if (body.payment_type === 'credit' && !given(body.source) && !customer) {
      problem(['source'], "is required (card data or a stored card id), or give customer to charge the customer's card on file");
    }
    const payer = isRecord(body.payment_method) && body.payment_method.buyer !== undefined;
    if (body.payment_type === 'boleto' && !customer && !payer) problem(['customer'], 'is required (or payment_method.buyer for a complete boleto)');
    if (body.payment_type === 'bolepix' && !customer) problem(['customer'], 'is required');
  },
  { when: () => true },
);

const transactionCreate = z
  .looseObject({
    amount: z.optional(centsOrCentsText),
    currency: z.optional(currency),
    payment_type: z.enum(['credit', 'debit', 'boleto', 'bolepix', 'pix'], 'must be credit, debit, boleto, bolepix or pix'),
    on_behalf_of: id,
    reference_id: z.optional(z.string().check(z.minLength(1), z.maxLength(500, 'must be at most 500 characters'))),
    description: z.optional(z.string('must be text').check(z.maxLength(500, 'must be at most 500 characters'))),
    capture: z.optional(captureFlag),
    customer: z.optional(id),
    // The provider's file requires none of the source's fields; the seed's sample sends them all.
    source: z.optional(
      z.looseObject({
        usage: z.optional(z.enum(['single_use', 'reusable'], 'must be single_use or reusable')),
        amount: z.optional(cents),
        currency: z.optional(currency),
        type: z.optional(z.literal('card', 'must be card')),
        capture: z.optional(captureFlag),
        card: cardChoice,
        installment_plan: z.optional(installmentPlan),
      }),
    ),
    installment_plan: z.optional(installmentPlan),
    payment_method: z.optional(
      z.looseObject({
        expiration_date: z.optional(date),
        payment_limit_date: z.optional(date),
        due_at: z.optional(date),
        payment_limit_at: z.optional(date),
        buyer: z.optional(payer),
        body_instructions: z.optional(z.nullable(bodyInstructions)),
        billing_instructions: z.optional(z.nullable(billingInstructions)),
        // A bolepix's options.
        interest: z.optional(bolepixInterest),
        late_fee: z.optional(boletoCharge(['PERCENTAGE', 'FIXED'])),
        discount: z.optional(boletoCharge(['PERCENTAGE', 'FIXED'])),
        billing_message_list: z.optional(z.nullable(z.looseObject({}, 'must be an object'))),
      }),
    ),
    pix_expiration_date_time: z.optional(dateTime),
    metadata: z.optional(metadata),
    split_rules: z.optional(z.array(splitRule)),
  })
  .check(transactionVariant);

const moneyMove = z.looseObject({ on_behalf_of: id, amount: cents });

/** A buyer's fields; an update sends null to clear one (not the name or the document). */
const buyerFields = {
  first_name: z.optional(filled),
  last_name: optionalText,
  phone_number: optionalText,
  description: optionalText,
  email: z.optional(z.nullable(email)),
  taxpayer_id: z.optional(taxpayerId),
  birthdate: z.optional(z.nullable(date)),
  address: z.optional(z.nullable(addressPatch)),
  metadata: z.optional(metadata),
};
/** A buyer is created with its name and document (the CLI asks for both); an update sends any field. */
const buyerCreate = z.looseObject({ ...buyerFields, first_name: buyerFields.first_name.def.innerType, taxpayer_id: taxpayerId });
const buyerUpdate = z.looseObject(buyerFields);

const cpf = z.string().check(z.refine((v) => isValidCpf(v), 'must be a CPF with matching check digits'));
const cnpj = z.string().check(z.refine((v) => isValidCnpj(v), 'must be a CNPJ (numeric or alphanumeric) with matching check digits'));
const nonEmpty = z.string().check(z.minLength(1, 'must not be empty'));

/** Sellers: a person needs a name, a CPF and an e-mail; a company its name, CNPJ and e-mail (create); an update any of them. */
const sellerCommon = { statement_descriptor: optionalText, description: optionalText, metadata: z.optional(metadata) };
const individualSeller = {
  first_name: nonEmpty,
  last_name: nonEmpty,
  taxpayer_id: cpf,
  email,
  phone_number: optionalText,
  birthdate: z.optional(date),
  address: z.optional(addressPatch),
  ...sellerCommon,
};
const ownerFields = { first_name: filled, last_name: optionalText, taxpayer_id: cpf, email: z.optional(email) };
const businessSeller = {
  business_name: nonEmpty,
  ein: cnpj,
  business_email: email,
  business_phone: optionalText,
  business_opening_date: z.optional(date),
  business_address: z.optional(addressPatch),
  owner: z.optional(z.looseObject(ownerFields)),
  ...sellerCommon,
};
const allOptional = <T extends Record<string, z.ZodMiniType>>(shape: T) =>
  z.looseObject(Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, z.optional(schema)])) as { [K in keyof T]: z.ZodMiniOptional<T[K]> });
/** An update may change some of the owner's fields: the service merges them. */
const ownerUpdate = allOptional(ownerFields);

const sourceRef = z.union([id, z.looseObject({ id, amount: z.optional(cents) })]);
const SOURCE_ORIGINS = ['card', 'token', 'customer'] as const;
/**
 * A source is charged to one of a card, a token or a customer's card on file: one named, a card
 * when none is. A card's own share of the source (card.amount) is whole cents, as the service
 * takes it from either form of card.
 */
const oneOrigin = z.superRefine(
  (body: unknown, ctx) => {
    if (!isRecord(body)) return;
    const problem = (path: string[], message: string) => ctx.issues.push({ code: 'custom', message, path, input: body });
    const named = SOURCE_ORIGINS.filter((key) => given(body[key]));
    if (named.length > 1) problem([named[1] as string], `give one of card, token or customer, not ${named.join(' and ')}`);
    if (named.length === 0) problem(['card'], 'is required unless token or customer is given: {"id": …} of a stored card, or card data');
    const share = isRecord(body.card) ? body.card.amount : undefined;
    if (given(share) && !centsOrCentsText.safeParse(share).success) problem(['card', 'amount'], 'must be a positive integer amount in cents');
  },
  { when: () => true },
);
const source = z.looseObject({
  usage: z.enum(['single_use', 'reusable']),
  type: z.literal('card', 'must be card, the one type the provider takes'),
  currency,
  amount: z.optional(cents),
  capture: z.optional(z.boolean()),
  card: z.optional(cardChoice),
  // The provider's file types customer as a string with the properties of {id, amount}, and
  // token as {id, amount}: either form is taken for both.
  token: z.optional(sourceRef),
  customer: z.optional(sourceRef),
  on_behalf_of: z.optional(id),
  installment_plan: z.optional(installmentPlan),
  description: textOfAtMost(500),
  statement_descriptor: textOfAtMost(22),
  metadata: z.optional(metadata),
}).check(oneOrigin);

/** A whole number of at least `min`, or null for none. */
const countOrNone = (min: number) => z.optional(z.nullable(z.int('must be a whole number').check(z.minimum(min, `must be ${min} or more`))));
/**
 * The recurrence payment methods: the provider's file lists credit; its service description names
 * boleto recurrence too, and the CLI offers both (--payment-method).
 */
const recurrenceMethod = z.enum(['credit', 'boleto'], 'must be credit or boleto');
const planFields = {
  name: filled,
  description: optionalText,
  frequency: z.enum(['daily', 'weekly', 'monthly', 'annually'], 'must be daily, weekly, monthly or annually'),
  interval: z.int().check(z.minimum(1, 'must be 1 or more')),
  currency,
  payment_methods: z.array(recurrenceMethod).check(z.minLength(1, 'must name at least one payment method')),
  // A plan's price: the CLI refuses a zero --amount.
  amount: z.optional(cents),
  setup_amount: z.optional(centsOrZero),
  // The provider's file: duration (integer); grace and tolerance days are the CLI's --grace-days and --tolerance-days.
  duration: countOrNone(1),
  grace_period: countOrNone(0),
  tolerance_period: countOrNone(0),
  metadata: z.optional(metadata),
};
/** The provider's POST and PUT both require name, frequency, interval, currency, payment_methods; a new plan has its amount too (the CLI asks for it). */
const plan = z.looseObject(planFields);
const planCreate = z.looseObject({ ...planFields, amount: cents });

/** A boleto subscription has no card; a card one cannot have its card cleared (it would have nothing to charge). */
const cardSuitsMethod = z.superRefine(
  (body: unknown, ctx) => {
    if (!isRecord(body)) return;
    const boleto = body.payment_method === 'boleto';
    if (boleto ? typeof body.card === 'string' : body.card === null) {
      const message = boleto
        ? 'must be left out with payment_method boleto: a boleto subscription has no card'
        : 'cannot be cleared (a card subscription needs one; send payment_method boleto to stop charging a card)';
      ctx.issues.push({ code: 'custom', message, path: ['card'], input: body });
    }
  },
  { when: () => true },
);
const subscriptionFields = {
  plan: z.optional(id),
  customer: z.optional(id),
  payment_method: z.optional(recurrenceMethod),
  due_date: z.optional(date),
  // Seed 4.3 sends YYYY-MM-DD; the provider's file types it as text, and its records carry a date-time.
  expiration_date: z.optional(z.nullable(dateOrDateTime)),
  // The plan's amount unless given: the CLI sends the plan's, or --amount (never zero).
  amount: z.optional(cents),
  currency: z.optional(currency),
  // null: no card, which a subscription paid by boleto has.
  card: z.optional(z.nullable(id)),
  on_behalf_of: z.optional(id),
  description: optionalText,
  metadata: z.optional(metadata),
};
/** A new subscription names its plan, buyer and seller, and its first due date: the CLI always sends them. */
const subscriptionCreate = z.looseObject({ ...subscriptionFields, plan: id, customer: id, on_behalf_of: id, due_date: date }).check(cardSuitsMethod);
const subscriptionUpdate = z.looseObject(subscriptionFields).check(cardSuitsMethod);

/** An invoice is paid until it expires, so it cannot expire before it is due. */
const expiresOnceDue = z.superRefine(
  (body: unknown, ctx) => {
    if (!isRecord(body) || !date.safeParse(body.due_date).success || !dateOrDateTime.safeParse(body.expiration_date).success) return;
    const due = body.due_date as string;
    if (dayOf(body.expiration_date as string) < due) {
      ctx.issues.push({ code: 'custom', message: `must not be before the due date (${due})`, path: ['expiration_date'], input: body });
    }
  },
  { when: () => true },
);
const invoice = z
  .looseObject({
    customer: id,
    amount: cents,
    currency,
    due_date: date,
    expiration_date: z.optional(z.nullable(dateOrDateTime)),
    on_behalf_of: z.optional(id),
    description: textOfAtMost(500),
    // A one-off invoice: charged to a card, and of no subscription (a subscription's billing issues its own).
    payment_method: z.optional(z.literal('credit', 'must be "credit"')),
    subscription: z.optional(z.unknown().check(z.refine((v) => v === null, "is set by a subscription's own billing; a one-off invoice names none"))),
    metadata: z.optional(metadata),
  })
  .check(expiresOnceDue);

/** Event types the service sends (or `*`, all of them): a webhook for another would never be called. */
const eventTypes = z.array(z.string()).check(
  z.minLength(1, 'must name at least one event type'),
  z.refine((types) => unknownEventTypes(types).length === 0, { error: (issue) => `unknown event type(s): ${unknownEventTypes(issue.input as string[]).join(', ')}` }),
);
const webhook = z.looseObject({
  // Not in the provider's file; the one method there is, when given.
  method: z.optional(z.literal('POST', 'must be POST')),
  // Whether plain http goes to this machine is the sandbox's to say (src/platform knows the loopback hosts).
  url: z.string().check(z.regex(/^https?:\/\/\S+$/, 'must be an http(s) URL')),
  description: textOfAtMost(500),
  event: eventTypes,
});

export const requestSchemas = {
  'transactions.create': transactionCreate,
  'transactions.void': moneyMove,
  'transactions.capture': moneyMove,
  // The provider's file: metadata (text values); the service takes a description too.
  'transactions.update': z.looseObject({ description: z.optional(z.nullable(z.string('must be text').check(z.maxLength(500, 'must be at most 500 characters')))), metadata: z.optional(metadata) }),
  'transactions.splits.add': splitRule,
  'cards.tokenize': cardData,
  'cards.associate': z.object({ token: id, customer: id }),
  'sellers.createIndividual': z.looseObject(individualSeller),
  'sellers.createBusiness': z.looseObject(businessSeller),
  'sellers.updateIndividual': allOptional(individualSeller),
  'sellers.updateBusiness': allOptional({ ...businessSeller, owner: ownerUpdate }),
  'buyers.create': buyerCreate,
  'buyers.update': buyerUpdate,
  'sources.create': source,
  'receipts.email': z.object({ to: email }),
  'receipts.sms': z.object({ to: mobile }),
  'plans.create': planCreate,
  'plans.update': plan,
  'subscriptions.create': subscriptionCreate,
  'subscriptions.update': subscriptionUpdate,
  'invoices.create': invoice,
  'webhooks.create': webhook,
} as const satisfies Partial<Record<Operation, z.ZodMiniType>>;

/**
 * Which flag sets each field, for the message. A field is named by its path with array indexes
 * dropped ("source.card.card_number"); the same field name means the same flag in every body.
 */
const FLAGS: Record<string, string> = {
  amount: '--amount',
  currency: '--currency',
  on_behalf_of: '--on-behalf-of',
  reference_id: '--reference-id',
  customer: '--customer',
  'source.amount': '--amount',
  'source.currency': '--currency',
  'source.card.id': '--card',
  'source.card.holder_name': '--holder-name',
  'source.card.card_number': '--card-number',
  'source.card.expiration_month': '--exp-month',
  'source.card.expiration_year': '--exp-year',
  'source.card.security_code': '--cvv',
  'card.holder_name': '--holder-name',
  'card.card_number': '--card-number',
  'card.expiration_month': '--exp-month',
  'card.expiration_year': '--exp-year',
  'card.security_code': '--cvv',
  'card.id': '--card',
  holder_name: '--holder-name',
  card_number: '--card-number',
  expiration_month: '--exp-month',
  expiration_year: '--exp-year',
  security_code: '--cvv',
  'installment_plan.number_installments': '--installments',
  'source.installment_plan.number_installments': '--installments',
  'payment_method.expiration_date': '--due-date',
  'payment_method.due_at': '--due-date',
  'payment_method.payment_limit_date': '--payment-limit-date',
  'payment_method.payment_limit_at': '--payment-limit-date',
  'payment_method.buyer.first_name': '--payer-first-name',
  'payment_method.buyer.last_name': '--payer-last-name',
  'payment_method.buyer.taxpayer_id': '--payer-taxpayer-id',
  'payment_method.buyer.email': '--payer-email',
  'payment_method.buyer.birthdate': '--payer-birthdate',
  'payment_method.buyer.address.line1': '--payer-address-line1',
  'payment_method.buyer.address.city': '--payer-city',
  'payment_method.buyer.address.state': '--payer-state',
  'payment_method.buyer.address.postal_code': '--payer-postal-code',
  pix_expiration_date_time: '--pix-expires-at',
  metadata: '--metadata',
  description: '--description',
  'payment_method.body_instructions': '--instruction',
  'payment_method.billing_instructions.late_fee': '--late-fee',
  'payment_method.billing_instructions.interest': '--interest',
  'payment_method.billing_instructions.discount': '--discount',
  'payment_method.late_fee': '--late-fee',
  'payment_method.interest': '--interest',
  'payment_method.discount': '--discount',
  'payment_method.billing_message_list.message': '--instruction',
  statement_descriptor: '--statement-descriptor',
  split_rules: '--split',
  'split_rules.recipient': '--split',
  'split_rules.amount': '--split',
  'split_rules.percentage': '--split',
  first_name: '--first-name',
  last_name: '--last-name',
  business_name: '--business-name',
  ein: '--ein',
  business_email: '--email',
  business_opening_date: '--opening-date',
  'business_address.postal_code': '--postal-code',
  'owner.first_name': '--owner-first-name',
  'owner.taxpayer_id': '--owner-taxpayer-id',
  'owner.email': '--owner-email',
  email: '--email',
  taxpayer_id: '--taxpayer-id',
  birthdate: '--birthdate',
  'address.postal_code': '--postal-code',
  token: '--token',
  'token.id': '--token',
  card: '--card',
  to: '--to',
  name: '--name',
  frequency: '--frequency',
  interval: '--interval',
  payment_methods: '--payment-method',
  setup_amount: '--setup-amount',
  plan: '--plan',
  due_date: '--due-date',
  expiration_date: '--expiration-date',
  url: '--url',
  event: '--event',
};

/** The flag that sets a body's field (a dotted path), for messages: `--reference-id`, else the field. */
export function flagFor(path: string): string {
  // A field inside one a flag sets whole (a --metadata entry): that flag.
  for (let parts = path.split('.'); parts.length > 0; parts = parts.slice(0, -1)) {
    const flag = FLAGS[parts.join('.')];
    if (flag) return flag;
  }
  return path ? `the request's ${path}` : 'the request';
}

/** A body that has met its operation's schema, as the schema types it. */
export type RequestBody<O extends keyof typeof requestSchemas> = z.infer<(typeof requestSchemas)[O]>;

export interface RequestProblem {
  /** The body's field, as a dotted path ("source.card.card_number"). */
  field: string;
  flag: string;
  message: string;
}

/** A body read by its operation's schema: as the schema parsed it, or every field at fault. */
export function readRequest(
  operation: keyof typeof requestSchemas,
  body: unknown,
): { ok: true; body: RequestBody<keyof typeof requestSchemas> } | { ok: false; problems: RequestProblem[] } {
  const result = z.safeParse(requestSchemas[operation], body);
  if (result.success) return { ok: true, body: result.data };
  const problems = result.error.issues.flatMap(withinUnion).map((issue) => {
    const path = issue.path.filter((key) => typeof key === 'string').join('.');
    let message = issue.message;
    // A field left out is missing, whatever the message for a wrong value says.
    if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && valueAt(body, issue.path) === undefined) message = 'is required';
    else if (issue.code === 'invalid_type' && !message.startsWith('must')) message = `must be ${issue.expected}`;
    return { field: path, flag: flagFor(path), message };
  });
  return { ok: false, problems };
}

/** Every field of a body that does not meet its operation's schema (none when it does). */
export function requestProblems(operation: keyof typeof requestSchemas, body: unknown): RequestProblem[] {
  const read = readRequest(operation, body);
  return read.ok ? [] : read.problems;
}

/** The first field of a body that does not meet its operation's schema, or undefined. */
export function checkRequestBody(operation: keyof typeof requestSchemas, body: unknown): RequestProblem | undefined {
  return requestProblems(operation, body)[0];
}

/**
 * A union's failure as the failures of the one option the value has the type of (`{}` for an id or
 * `{"id": …}`: the object's missing id), so the field at fault is named; the union's own message when
 * the value fits several options or none.
 */
function withinUnion(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue];
  const fitting = issue.errors.filter((errors) => !errors.some((e) => e.code === 'invalid_type' && e.path.length === 0));
  if (fitting.length !== 1) return [issue];
  return (fitting[0] as z.core.$ZodIssue[]).flatMap((e) => withinUnion({ ...e, path: [...issue.path, ...e.path] } as z.core.$ZodIssue));
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let value = body;
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

export function hasRequestSchema(operation: unknown): operation is keyof typeof requestSchemas {
  return typeof operation === 'string' && Object.hasOwn(requestSchemas, operation);
}
