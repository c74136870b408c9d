import { createHash, randomUUID } from 'node:crypto';
import { controlCharacterIn } from '../../api/control-text.js';
import type { Factory } from '../../factory.js';
import { CliError, ExitCode, NetworkError, UsageError, ValidationError } from '../../errors.js';
import { describeOrigin, type AskedMove, type MoveLookup, type MoveProof, type MoveTarget } from '../../ledger/guard.js';
import type { Proof } from '../../ledger/settle.js';
import { UNRESOLVED, type Intent } from '../../ledger/types.js';
import { formatMoney } from '../../output/format.js';
import type { Choice } from '../../prompts/prompter.js';
import { asValidator } from '../../prompts/prompter.js';
import {
  centsToDecimalString,
  decimalStringToCents,
  parseAmount,
  parseDate,
  parseDateTime,
  parseMetadata,
  validateCurrency,
  validateEmail,
  validateId,
  validateInstallments,
  validatePhone,
} from '../../validate/index.js';
import { validateTaxpayerId } from '../../validate/taxpayer.js';
import { amountFromFlags } from '../shared/amount.js';
import { parseCharge, type Charge } from '../shared/charge.js';
import { checkCardFlags, hasCardFlags, readCard, type CardInput } from '../shared/card.js';
import { notInThePast } from '../shared/dates.js';
import { askArgument } from '../shared/ask-missing.js';
import { missingInput, optionalString, stringList } from '../shared/input.js';
import type { SavedCard } from './new-card.js';
import type { Transaction } from './shared.js';
import { checkSplits, parseSplit, splitRuleBody, type SplitInput } from './split-input.js';
import { TRANSACTION_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { create } from './flags.js';

type CreateOptions = OptionsOf<typeof create>;

// ---------------------------------------------------------------------------------------------
// The seven variants of "create transaction" (seed 4.1), chosen from the flags, and a new card for
// a known buyer: saved to them (tokenized, then associated), then charged by its id.

export type PaymentType = 'credit' | 'boleto' | 'bolepix' | 'pix';

export type Payment =
  | { kind: 'card'; card: CardInput; installments?: number; capture: boolean }
  | { kind: 'card_id'; cardId: string; customer?: string; installments?: number; capture: boolean }
  | { kind: 'new_card'; card: CardInput; customer: string; installments?: number; capture: boolean }
  | { kind: 'customer'; customer: string; installments?: number; capture: boolean }
  | { kind: 'boleto'; customer: string }
  | { kind: 'boleto_complete'; customer?: string; boleto: BoletoOptions }
  | { kind: 'bolepix'; customer: string; boleto: BoletoOptions }
  | { kind: 'pix'; customer?: string; expiresAt?: string };

export interface BoletoOptions {
  dueDate?: string;
  paymentLimitDate?: string;
  instructions: string[];
  lateFee?: Charge;
  interest?: Interest;
  discounts: (Charge & { until: string })[];
  payer?: Payer;
}

export type Interest = Charge & { per: 'day' | 'month' };

export interface Payer {
  first_name: string;
  last_name: string;
  taxpayer_id: string;
  email?: string;
  phone_number?: string;
  birthdate?: string;
  address?: Record<string, string>;
}

export interface CreateInput {
  amountCents: number;
  currency: string;
  description?: string;
  referenceId: string;
  onBehalfOf: string;
  metadata?: Record<string, string>;
  payment: Payment;
  /** Other sellers' parts of the sale (--split); the sale's own seller gets the rest. */
  splits?: SplitInput[];
}

/**
 * The request body, in the seed's types (4.1) where it gives them: `capture` is the text "true" or
 * "false", a boleto's amount is numeric text in cents, and the installment plan rides in `source`;
 * elsewhere the provider's (integer cents, integer installments). The installment plan is also sent
 * at the top level, where the provider's file puts it.
 */
export function buildCreateRequest(input: CreateInput): Record<string, unknown> {
  const { payment } = input;
  const boleto = payment.kind === 'boleto' || payment.kind === 'boleto_complete';
  const body: Record<string, unknown> = {
    amount: boleto ? String(input.amountCents) : input.amountCents,
    currency: input.currency,
    payment_type: paymentTypeOf(payment),
    on_behalf_of: input.onBehalfOf,
    reference_id: input.referenceId,
  };
  if (input.description !== undefined) body.description = input.description;
  switch (payment.kind) {
    case 'card':
    case 'card_id':
    case 'new_card': {
      // A new card for a buyer is charged by the id it gets once saved: until then (a dry run, the
      // fingerprint, the summary) the body carries the card itself.
      if (payment.kind !== 'card' && payment.customer !== undefined) body.customer = payment.customer;
      body.capture = String(payment.capture);
      const installmentPlan = installmentPlanOf(payment.installments);
      body.source = {
        usage: 'single_use',
        amount: input.amountCents,
        currency: input.currency,
        type: 'card',
        card: payment.kind === 'card_id' ? { id: payment.cardId } : { ...payment.card },
        ...(installmentPlan ? { installment_plan: installmentPlan } : {}),
      };
      if (installmentPlan) body.installment_plan = installmentPlan;
      break;
    }
    case 'customer': {
      body.customer = payment.customer;
      body.capture = String(payment.capture);
      const installmentPlan = installmentPlanOf(payment.installments);
      if (installmentPlan) body.installment_plan = installmentPlan;
      break;
    }
    case 'boleto':
      body.customer = payment.customer;
      break;
    case 'boleto_complete':
      if (payment.customer !== undefined) body.customer = payment.customer;
      body.payment_method = boletoPaymentMethod(payment.boleto);
      break;
    case 'bolepix':
      body.customer = payment.customer;
      body.payment_method = bolepixPaymentMethod(payment.boleto);
      break;
    case 'pix':
      if (payment.customer !== undefined) body.customer = payment.customer;
      if (payment.expiresAt !== undefined) body.pix_expiration_date_time = payment.expiresAt;
      break;
  }
  if (input.metadata && Object.keys(input.metadata).length > 0) body.metadata = input.metadata;
  if (input.splits && input.splits.length > 0) body.split_rules = input.splits.map((split) => splitRuleBody(split, input.amountCents));
  return body;
}

function installmentPlanOf(installments: number | undefined): { number_installments: number } | undefined {
  return installments === undefined ? undefined : { number_installments: installments };
}

function paymentTypeOf(payment: Payment): PaymentType {
  switch (payment.kind) {
    case 'card':
    case 'card_id':
    case 'new_card':
    case 'customer':
      return 'credit';
    case 'boleto':
    case 'boleto_complete':
      return 'boleto';
    case 'bolepix':
      return 'bolepix';
    case 'pix':
      return 'pix';
  }
}

/** Fees and interest start the day after the due date. */
function dayAfter(date: string | undefined): string | undefined {
  if (!date) return undefined;
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

function boletoPaymentMethod(boleto: BoletoOptions): Record<string, unknown> {
  const method: Record<string, unknown> = {};
  if (boleto.dueDate) method.expiration_date = boleto.dueDate;
  if (boleto.paymentLimitDate) method.payment_limit_date = boleto.paymentLimitDate;
  if (boleto.payer) method.buyer = boleto.payer;
  if (boleto.instructions.length > 0) method.body_instructions = boleto.instructions;
  const start = dayAfter(boleto.dueDate);
  const billing: Record<string, unknown> = {};
  if (boleto.lateFee) {
    billing.late_fee = {
      ...(boleto.lateFee.mode === 'percentage'
        ? { mode: 'PERCENTAGE', percentage: Number(boleto.lateFee.value) }
        : { mode: 'FIXED', amount: boleto.lateFee.cents }),
      ...(start ? { start_date: start } : {}),
    };
  }
  if (boleto.interest) {
    const i = boleto.interest;
    billing.interest = {
      ...(i.mode === 'fixed'
        ? { mode: 'DAILY_AMOUNT', amount: i.cents }
        : { mode: i.per === 'day' ? 'DAILY_PERCENTAGE' : 'MONTHLY_PERCENTAGE', percentage: Number(i.value) }),
      ...(start ? { start_date: start } : {}),
    };
  }
  if (boleto.discounts.length > 0) {
    billing.discount = boleto.discounts.map((d) => ({
      ...(d.mode === 'percentage' ? { mode: 'PERCENTAGE', percentage: Number(d.value) } : { mode: 'FIXED', amount: d.cents }),
      limit_date: d.until,
    }));
  }
  if (Object.keys(billing).length > 0) method.billing_instructions = billing;
  return method;
}

function bolepixPaymentMethod(boleto: BoletoOptions): Record<string, unknown> {
  const method: Record<string, unknown> = {};
  if (boleto.dueDate) method.due_at = boleto.dueDate;
  if (boleto.paymentLimitDate) method.payment_limit_at = boleto.paymentLimitDate;
  if (boleto.instructions.length > 0) method.billing_message_list = { message: boleto.instructions.join('\n') };
  const start = dayAfter(boleto.dueDate);
  const value = (c: Charge) => (c.mode === 'percentage' ? { mode: 'PERCENTAGE', value: c.value } : { mode: 'FIXED', value: String(c.cents) });
  if (boleto.lateFee) method.late_fee = { ...value(boleto.lateFee), ...(start ? { start_at: start } : {}) };
  if (boleto.interest) {
    method.interest = { ...value(boleto.interest), frequency: boleto.interest.per === 'day' ? 'DAILY' : 'MONTHLY', ...(start ? { start_at: start } : {}) };
  }
  const [discount] = boleto.discounts;
  if (discount) method.discount = { ...value(discount), limit_at: discount.until };
  return method;
}

// ---------------------------------------------------------------------------------------------
// Reading the flags (and, on a terminal, asking for what is missing).

const CARD_ONLY_FLAGS = ['cardNumber', 'holderName', 'expMonth', 'expYear', 'cvv', 'cardFile', 'card', 'installments'];
const BOLETO_COMPLETE_FLAGS = ['dueDate', 'paymentLimitDate', 'instruction', 'lateFee', 'interest', 'discount'];
const PAYER_FLAGS = {
  payerFirstName: 'first_name',
  payerLastName: 'last_name',
  payerEmail: 'email',
  payerPhone: 'phone_number',
  payerTaxpayerId: 'taxpayer_id',
  payerBirthdate: 'birthdate',
} as const;
const PAYER_ADDRESS_FLAGS = {
  payerAddressLine1: 'line1',
  payerAddressLine2: 'line2',
  payerNeighborhood: 'neighborhood',
  payerCity: 'city',
  payerState: 'state',
  payerPostalCode: 'postal_code',
} as const;

const given = (options: CreateOptions, keys: string[]): string[] =>
  (keys as (keyof CreateOptions)[]).filter((k) => {
    const value = options[k];
    return value !== undefined && !(Array.isArray(value) && value.length === 0);
  });
const flagName = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** What create's flags say, each read strictly; what they leave out is asked for or defaulted later. */
interface CreateFlags {
  /** Given, or credit when a flag of a payment type is (or asked for on a terminal, else credit). */
  paymentType?: PaymentType;
  amountCents?: number;
  currency?: string;
  onBehalfOf?: string;
  reference?: string;
  metadata?: Record<string, string>;
  /** Each read; checked against the amount and the seller once both are known. */
  splits: SplitInput[];
  customer?: string;
}

function readCreateFlags(options: CreateOptions): CreateFlags {
  const variantFlags = given(options, [...CARD_ONLY_FLAGS, 'customer', ...BOLETO_COMPLETE_FLAGS, ...Object.keys(PAYER_FLAGS), 'pixExpiresAt']);
  const paymentType = options.paymentType ?? (variantFlags.length > 0 ? 'credit' : undefined);
  const flags: CreateFlags = { splits: stringList(options.split).map((v) => parseSplit(v)) };
  if (paymentType !== undefined) flags.paymentType = paymentType;
  const amountCents = amountFromFlags(options);
  if (amountCents !== undefined) flags.amountCents = amountCents;
  const currency = optionalString(options.currency);
  if (currency !== undefined) flags.currency = validateCurrency(currency, '--currency');
  const onBehalfOf = optionalString(options.onBehalfOf);
  if (onBehalfOf !== undefined) flags.onBehalfOf = validateId(onBehalfOf, 'seller id', '--on-behalf-of');
  const reference = optionalString(options.referenceId);
  if (reference !== undefined) flags.reference = checkReference(reference);
  const metadataPairs = stringList(options.metadata);
  if (metadataPairs.length > 0) flags.metadata = parseMetadata(metadataPairs, '--metadata');
  const customer = optionalString(options.customer);
  if (customer !== undefined) flags.customer = validateId(customer, 'buyer id', '--customer');
  return flags;
}

/**
 * The flags of one payment type, checked as far as the command line tells: none of another type's,
 * one way to pay a card, a boleto's options and payer, a PIX's expiry.
 */
function checkPaymentFlags(paymentType: PaymentType, options: CreateOptions, customer: string | undefined): void {
  if (paymentType !== 'credit') {
    const wrong = given(options, CARD_ONLY_FLAGS);
    // commander defaults capture to true, so only an explicit --no-capture shows up as false.
    if (options.capture === false) wrong.push('noCapture');
    if (wrong.length > 0) throw new UsageError(`${wrong.map(flagName).join(', ')} only apply to --payment-type credit`);
  }
  if (paymentType !== 'pix' && options.pixExpiresAt !== undefined) throw new UsageError('--pix-expires-at only applies to --payment-type pix');
  if (paymentType === 'credit' || paymentType === 'pix') {
    const wrong = given(options, [...BOLETO_COMPLETE_FLAGS, ...Object.keys(PAYER_FLAGS), ...Object.keys(PAYER_ADDRESS_FLAGS)]);
    if (wrong.length > 0) throw new UsageError(`${wrong.map(flagName).join(', ')} only apply to boleto payments`);
  }
  if (paymentType === 'credit') {
    cardKindOf(options, customer);
    installmentsOf(options);
    checkCardFlags(options);
  }
  if (paymentType === 'pix') pixExpiryOf(options);
  if (paymentType === 'boleto' || paymentType === 'bolepix') checkBoletoPayer(paymentType, readBoletoOptions(options), customer);
}

/**
 * Create's flag rules, from the command line alone (verb.ts, VerbModule.check): those of a payment
 * type apply once the flags say which it is (a walk-through asks, then checks them).
 */
export function check(_args: ArgsOf<typeof create>, options: CreateOptions): void {
  const flags = readCreateFlags(options);
  if (flags.paymentType !== undefined) checkPaymentFlags(flags.paymentType, options, flags.customer);
}

/**
 * Turns flags (plus answers to prompts on a terminal) into a checked CreateInput. `referenceGiven`:
 * the reference is the user's (--reference-id, or the order number typed in a walk-through), not one
 * payctl made up.
 */
export async function gatherCreateInput(ctx: Factory, options: CreateOptions): Promise<{ input: CreateInput; walkedThrough: boolean; referenceGiven: boolean }> {
  const profile = await ctx.config.profile();
  const asking = ctx.prompts.interactive;
  let walkedThrough = false;

  const flags = readCreateFlags(options);
  let paymentType = flags.paymentType;
  if (paymentType === undefined) {
    if (asking) {
      walkedThrough = true;
      paymentType = await (await ctx.prompts.prompter()).select<PaymentType>('Payment type', [
        { name: 'Credit card', value: 'credit' },
        { name: 'Boleto', value: 'boleto' },
        { name: 'Boleto with PIX (bolepix)', value: 'bolepix' },
        { name: 'PIX', value: 'pix' },
      ]);
    } else {
      paymentType = 'credit';
    }
  }
  checkPaymentFlags(paymentType, options, flags.customer);

  let amountCents = flags.amountCents;
  if (amountCents === undefined) {
    if (!asking) throw missingInput(ctx, ['--amount (or --amount-cents)']);
    walkedThrough = true;
    const text = await (await ctx.prompts.prompter()).text('Amount (e.g. 10.50)', { validate: asValidator((v) => parseAmount(v)) });
    amountCents = parseAmount(text);
  }
  const currency = flags.currency ?? validateCurrency(profile.currency, '--currency');

  let onBehalfOf = flags.onBehalfOf ?? profile.sellerId;
  if (onBehalfOf === undefined) {
    if (!asking) throw missingInput(ctx, ['--on-behalf-of (or the profile seller_id, or PAYCTL_SELLER_ID)']);
    onBehalfOf = await askArgument(ctx, { noun: 'seller' }, '--on-behalf-of');
  }
  onBehalfOf = validateId(onBehalfOf, 'seller id', '--on-behalf-of');

  const { reference: flagReference, metadata } = flags;
  const splits = checkSplits(flags.splits, amountCents, onBehalfOf);

  const payment = await readPayment(ctx, paymentType, options, flags.customer, () => {
    walkedThrough = true;
  }, walkedThrough);

  // A walk-through asks for the order number the sale is for: the reference it is found by later
  // (`transactions get <order number>`), and what keeps a rerun from charging twice.
  let reference = flagReference;
  if (reference === undefined && walkedThrough) {
    const typed = await (await ctx.prompts.prompter()).text('Order number (reference_id; empty: payctl makes one up)', { default: '', validate: asValidator((v) => v === '' || checkReference(v)) });
    reference = typed === '' ? undefined : typed;
  }
  let description = optionalString(options.description);
  if (description === undefined && walkedThrough) {
    description = (await (await ctx.prompts.prompter()).text('Description (optional)', { default: '' })) || undefined;
  }

  const input: CreateInput = { amountCents, currency, referenceId: reference ?? generatedReference(), onBehalfOf, payment };
  if (description !== undefined) input.description = description;
  if (metadata !== undefined) input.metadata = metadata;
  if (splits.length > 0) input.splits = splits;
  return { input, walkedThrough, referenceGiven: reference !== undefined };
}

/** A reference as the service keeps it: checked here, not only in the body, as it is looked up before the charge is sent. */
function checkReference(reference: string): string {
  if (reference.length > 500) throw new ValidationError('--reference-id', 'at most 500 characters');
  const control = controlCharacterIn(reference);
  if (control) throw new ValidationError('--reference-id', `holds a control character, ${control.character}, which the service would store; write it without one. Nothing was sent`);
  return reference;
}

async function readPayment(
  ctx: Factory,
  paymentType: PaymentType,
  options: CreateOptions,
  customer: string | undefined,
  markWalked: () => void,
  walking: boolean,
): Promise<Payment> {
  switch (paymentType) {
    case 'credit':
      return readCardPayment(ctx, options, customer, markWalked, walking);
    case 'pix': {
      // A PIX may name the buyer who pays it; dropping a --customer given here would lose it silently.
      const expiresAt = pixExpiryOf(options);
      return { kind: 'pix', ...(customer !== undefined ? { customer } : {}), ...(expiresAt !== undefined ? { expiresAt } : {}) };
    }
    case 'boleto':
    case 'bolepix': {
      const boleto = readBoletoOptions(options);
      const complete = given(options, BOLETO_COMPLETE_FLAGS).length > 0 || boleto.payer !== undefined;
      checkBoletoPayer(paymentType, boleto, customer);
      if (paymentType === 'boleto' && boleto.payer !== undefined) return { kind: 'boleto_complete', ...(customer ? { customer } : {}), boleto };
      const buyer = customer ?? (await askCustomer(ctx, markWalked));
      if (paymentType === 'bolepix') return { kind: 'bolepix', customer: buyer, boleto };
      return complete ? { kind: 'boleto_complete', customer: buyer, boleto } : { kind: 'boleto', customer: buyer };
    }
  }
}

/** Who pays a boleto: a registered buyer or an inline payer, not both; a bolepix bills a buyer, with one discount at most. */
function checkBoletoPayer(paymentType: 'boleto' | 'bolepix', boleto: BoletoOptions, customer: string | undefined): void {
  if (boleto.payer !== undefined && customer !== undefined) {
    throw new UsageError('bill either a registered buyer (--customer) or an inline payer (--payer-* flags), not both');
  }
  if (paymentType === 'bolepix') {
    if (boleto.payer) throw new UsageError('bolepix bills a registered buyer: use --customer, not the --payer-* flags');
    if (boleto.discounts.length > 1) throw new UsageError('--discount: a boleto with PIX takes a single discount');
  }
}

function pixExpiryOf(options: CreateOptions): string | undefined {
  const expires = optionalString(options.pixExpiresAt);
  return expires === undefined ? undefined : inTheFuture(parseDateTime(expires, '--pix-expires-at'), '--pix-expires-at');
}

type CardKind = 'card' | 'card_id' | 'customer' | 'new_card';

/** How a card sale is paid, as its flags say (undefined: they do not); more than one way is refused. */
function cardKindOf(options: CreateOptions, customer: string | undefined): CardKind | undefined {
  const cardFlag = optionalString(options.card);
  const sources = [hasCardFlags(options) && 'card details', cardFlag !== undefined && '--card', customer !== undefined && '--customer'].filter(Boolean);
  // A new card with the buyer it is for: saved to them, then charged, in one command.
  const newCard = hasCardFlags(options) && customer !== undefined && cardFlag === undefined;
  if (sources.length > 1 && !newCard) {
    throw new UsageError(`choose one way to pay: ${sources.join(', ')} were all given (a new card for a buyer is its details with --customer)`);
  }
  if (newCard) return 'new_card';
  if (hasCardFlags(options)) return 'card';
  if (cardFlag !== undefined) return 'card_id';
  return customer !== undefined ? 'customer' : undefined;
}

function installmentsOf(options: CreateOptions): number | undefined {
  return options.installments === undefined ? undefined : validateInstallments(options.installments, '--installments');
}

async function askCustomer(ctx: Factory, markWalked: () => void): Promise<string> {
  if (!ctx.prompts.interactive) throw missingInput(ctx, ['--customer <buyer-id> (or the --payer-* flags for a complete boleto)']);
  markWalked();
  return validateId(await askArgument(ctx, { noun: 'buyer' }, '--customer'), 'buyer id', '--customer');
}

async function readCardPayment(
  ctx: Factory,
  options: CreateOptions,
  customer: string | undefined,
  markWalked: () => void,
  walking: boolean,
): Promise<Payment> {
  const capture = options.capture !== false;
  const cardFlag = optionalString(options.card);
  let kind = cardKindOf(options, customer);
  if (kind === undefined) {
    if (!ctx.prompts.interactive) {
      throw missingInput(ctx, ['--card-number --holder-name --exp-month --exp-year --cvv (or --card-file, --card <card-id>, --customer <buyer-id>)']);
    }
    markWalked();
    walking = true;
    const choices: Choice<CardKind>[] = [
      { name: 'New card (type its details)', value: 'card' },
      { name: 'Card on file (card id)', value: 'card_id' },
      { name: "Customer's default card (buyer id)", value: 'customer' },
      { name: 'New card, saved to a buyer', value: 'new_card' },
    ];
    kind = await (await ctx.prompts.prompter()).select('Pay with', choices);
  }
  let installments = installmentsOf(options);
  if (installments === undefined && walking) {
    installments = await (await ctx.prompts.prompter()).select(
      'Installments',
      Array.from({ length: 12 }, (_, i) => ({ name: i === 0 ? '1x (single payment)' : `${i + 1}x`, value: i + 1 })),
      { default: 1 },
    );
  }
  const extra = { capture, ...(installments !== undefined ? { installments } : {}) };
  switch (kind) {
    case 'card':
      return { kind: 'card', card: await readCard(ctx, options), ...extra };
    case 'card_id': {
      const id = cardFlag ?? (await (await ctx.prompts.prompter()).text('Card id', { validate: asValidator((v) => validateId(v, 'card id', '--card')) }));
      return { kind: 'card_id', cardId: validateId(id, 'card id', '--card'), ...extra };
    }
    case 'customer': {
      const id = customer ?? (await askCustomer(ctx, markWalked));
      return { kind: 'customer', customer: id, ...extra };
    }
    case 'new_card': {
      const id = customer ?? (await askCustomer(ctx, markWalked));
      return { kind: 'new_card', customer: id, card: await readCard(ctx, options), ...extra };
    }
  }
}

export function readBoletoOptions(options: CreateOptions): BoletoOptions {
  const dueDate = optionalString(options.dueDate);
  const limitDate = optionalString(options.paymentLimitDate);
  const boleto: BoletoOptions = {
    // One line each: a bolepix's instructions are sent joined by line breaks.
    instructions: stringList(options.instruction).map((instruction) => {
      if (/[\u0000-\u001f\u007f-\u009f]/.test(instruction)) throw new ValidationError('--instruction', 'holds a control character (a line break, a tab…); give each line as an --instruction of its own');
      return instruction;
    }),
    discounts: stringList(options.discount).map(parseDiscount),
  };
  if (dueDate !== undefined) boleto.dueDate = notInThePast(parseDate(dueDate, '--due-date'), '--due-date');
  if (limitDate !== undefined) boleto.paymentLimitDate = notInThePast(parseDate(limitDate, '--payment-limit-date'), '--payment-limit-date');
  if (boleto.dueDate && boleto.paymentLimitDate && boleto.paymentLimitDate < boleto.dueDate) {
    throw new UsageError(`--payment-limit-date ${boleto.paymentLimitDate} is before --due-date ${boleto.dueDate}`);
  }
  if (boleto.instructions.length > 5) throw new ValidationError('--instruction', `at most 5 instructions (got ${boleto.instructions.length})`);
  const lateFee = optionalString(options.lateFee);
  if (lateFee !== undefined) boleto.lateFee = parseCharge(lateFee, '--late-fee');
  const interest = optionalString(options.interest);
  if (interest !== undefined) boleto.interest = parseInterest(interest);
  const payer = readPayer(options);
  if (payer) boleto.payer = payer;
  return boleto;
}

function inTheFuture(isoDateTime: string, flag: string): string {
  if (Date.parse(isoDateTime) <= Date.now()) throw new ValidationError(flag, `${isoDateTime} is not in the future`);
  return isoDateTime;
}

function parseInterest(value: string): Interest {
  const perDay = /\/\s*day$/i.test(value.trim());
  const charge = parseCharge(value.trim().replace(/\/\s*(day|month)$/i, ''), '--interest');
  // A fixed interest amount is charged per day (the provider's DAILY_AMOUNT).
  return { ...charge, per: charge.mode === 'fixed' || perDay ? 'day' : 'month' };
}

function parseDiscount(value: string): Charge & { until: string } {
  const at = value.lastIndexOf('@');
  if (at <= 0) throw new ValidationError('--discount', `"${value}" should look like 5%@2026-12-01 or 2.00@2026-12-01`);
  return { ...parseCharge(value.slice(0, at), '--discount'), until: parseDate(value.slice(at + 1), '--discount') };
}

function readPayer(options: CreateOptions): Payer | undefined {
  const present = given(options, [...Object.keys(PAYER_FLAGS), ...Object.keys(PAYER_ADDRESS_FLAGS)]);
  if (present.length === 0) return undefined;
  const firstName = optionalString(options.payerFirstName);
  const lastName = optionalString(options.payerLastName);
  const taxpayerId = optionalString(options.payerTaxpayerId);
  if (firstName === undefined || lastName === undefined || taxpayerId === undefined) {
    const missing = Object.entries({ payerFirstName: firstName, payerLastName: lastName, payerTaxpayerId: taxpayerId }).filter(([, value]) => value === undefined);
    throw new UsageError(`an inline boleto payer needs ${missing.map(([key]) => flagName(key)).join(', ')}`);
  }
  const payer: Payer = { first_name: firstName, last_name: lastName, taxpayer_id: validateTaxpayerId(taxpayerId, '--payer-taxpayer-id') };
  const email = optionalString(options.payerEmail);
  if (email !== undefined) payer.email = validateEmail(email, '--payer-email');
  const phone = optionalString(options.payerPhone);
  if (phone !== undefined) payer.phone_number = validatePhone(phone, '--payer-phone');
  const birthdate = optionalString(options.payerBirthdate);
  if (birthdate !== undefined) payer.birthdate = parseDate(birthdate, '--payer-birthdate');
  const address: Record<string, string> = {};
  for (const [flag, field] of Object.entries(PAYER_ADDRESS_FLAGS)) {
    const value = optionalString(options[flag as keyof typeof PAYER_ADDRESS_FLAGS]);
    if (value !== undefined) address[field] = value;
  }
  if (address.state !== undefined && !/^[A-Za-z]{2}$/.test(address.state)) throw new ValidationError('--payer-state', 'use the two-letter state code, e.g. SP');
  if (address.state) address.state = address.state.toUpperCase();
  if (address.postal_code !== undefined) {
    const digits = address.postal_code.replace(/\D/g, '');
    if (digits.length !== 8) throw new ValidationError('--payer-postal-code', 'a CEP has 8 digits');
    address.postal_code = digits;
  }
  if (Object.keys(address).length > 0) payer.address = address;
  return payer;
}

// ---------------------------------------------------------------------------------------------
// Running it.

export async function run(ctx: Factory, _args: ArgsOf<typeof create>, options: OptionsOf<typeof create>): Promise<void> {
  await ctx.service.requireApiKey();
  const { input, walkedThrough, referenceGiven } = await gatherCreateInput(ctx, options);
  const allowDuplicate = options.allowDuplicateReference === true;
  if (allowDuplicate && !referenceGiven) throw new UsageError('--allow-duplicate-reference goes with --reference-id');
  let body = buildCreateRequest(input);
  const { payment } = input;
  if (ctx.globals.dryRun) {
    if (payment.kind !== 'new_card') return ctx.service.printDryRun('transactions.create', { body });
    // The first request a new card for a buyer sends is the one that tokenizes it.
    ctx.log.status(`dry run: the card is tokenized first, then saved to buyer ${payment.customer} (cards.associate) and charged by its id (transactions.create)`);
    const { buildTokenizeRequest } = await import('../cards/tokenize.js');
    return ctx.service.printDryRun('cards.tokenize', { body: buildTokenizeRequest(payment.card) });
  }
  const guard = await ctx.moneyGuard({ noWait: options.wait === false });
  // A rerun without --reference-id of a create whose outcome is unknown takes that create's
  // reference back, so it finds the charge it may have made instead of making another.
  const fingerprint = createFingerprint(body);
  if (!referenceGiven) {
    const earlier = await guard.ledger.unresolvedByFingerprint(fingerprint);
    if (earlier) {
      ctx.log.warn(`an earlier run (${describeOrigin(earlier, guard.ledger)}) sent the same transaction with reference_id ${earlier.target} and its outcome is unknown; checking that reference instead of charging again`);
      input.referenceId = earlier.target;
      body = buildCreateRequest(input);
    }
  }
  const reference = input.referenceId;
  const expected = expectedSale(input);
  const what: MoveTarget = {
    key: `reference:${reference}`,
    operation: 'transactions.create',
    target: reference,
    requestedCents: input.amountCents,
    what: `the transaction with reference_id ${reference}`,
    checkCommand: `payctl transactions list --reference-id ${reference}`,
  };
  const lookup: MoveLookup<Transaction[]> = { look: () => findByReference(ctx, reference), proves: (intent, found, others) => createProof(intent, found, others) };
  const { underApproval } = await import('../shared/approval.js');
  // Sent for approval, and waited for (--wait): the sale the approver's send made.
  const approved = async () => {
    const tx = (await findByReference(ctx, reference)).find((t) => saleMatches(expected, t));
    if (tx) await ctx.out.show(tx, TRANSACTION_VIEW);
    ctx.log.status(`Created transaction ${tx?.id ?? `with reference_id ${reference}`}${tx ? ` (${tx.status}, ${formatMoney(tx.amount ?? centsToDecimalString(input.amountCents), tx.currency ?? input.currency)})` : ''}`);
  };
  await underApproval(ctx, options.wait === true, () => guard.hold(what.key, what.what, `Let it finish, then check with: ${what.checkCommand}`, async (memory) => {
    if (!allowDuplicate) {
      const { repeat } = await guard.resolveEarlier({ ...what, ...lookup }, memory);
      // An explicit reference may also have been used by another machine, or by hand.
      const found = repeat?.now ?? (referenceGiven ? await findByReference(ctx, reference) : []);
      const existing = found.find((t) => saleMatches(expected, t)) ?? (repeat ? found[0] : undefined);
      if (existing) {
        await ctx.out.show(existing, TRANSACTION_VIEW);
        ctx.log.warn(`transaction ${existing.id} with reference_id ${reference} was already created at ${existing.created_at ?? 'an earlier run'}; not charging again (--allow-duplicate-reference sends anyway)`);
        return;
      }
      const other = found[0];
      if (other) {
        throw new UsageError(
          `--reference-id: ${reference} already names transaction ${other.id} (${formatMoney(other.original_amount ?? other.amount ?? '0', other.currency)}, ${other.payment_type ?? 'unknown type'}), which is not this charge of ${formatMoney(centsToDecimalString(input.amountCents), input.currency)}; nothing was sent. Use another reference, or --allow-duplicate-reference to charge anyway`,
        );
      }
    }
    if (walkedThrough) {
      // A walk-through ends by saying the charge in words (the card by brand and last 4) and asking;
      // --dry-run shows the request itself.
      const { createSummaryText } = await import('./create-summary.js');
      ctx.io.stderr.write(`\n${createSummaryText(body)}\n\n`);
      await ctx.prompts.confirm(`Create this ${describeKind(input.payment)} transaction of ${formatMoney(centsToDecimalString(input.amountCents), input.currency)}?`, 'create the transaction');
    }
    await ctx.service.noteSandbox();
    const api = await ctx.api();
    // A new card is saved to its buyer first (once for this sale, however many runs it takes), then
    // charged by its id; whatever fails after that says the card is saved.
    let saved: SavedCard | undefined;
    let charged: CreateInput = input;
    if (payment.kind === 'new_card') {
      const { saveCardForSale } = await import('./new-card.js');
      saved = await saveCardForSale(ctx, api, guard.ledger, what.key, memory, payment);
      charged = { ...input, payment: { ...payment, kind: 'card_id', cardId: saved.id } };
      body = buildCreateRequest(charged);
    }
    const proof: MoveProof<Transaction[], Transaction> = {
      ...lookup,
      answered: (_intent, answer) =>
        answer?.reference_id === reference && saleMatches(expected, answer)
          ? { kind: 'applied', proof: answer.id }
          : { kind: 'mismatch', why: `it is transaction ${answer?.id ?? '(none)'} with reference_id ${answer?.reference_id ?? '(none)'} and amount ${answer?.amount ?? '(none)'}, not this charge` },
      seen: (found) => createdOf(found, expected, memory) as Transaction,
    };
    const sending = {
      record: { amount_cents: input.amountCents, fingerprint, before: JSON.stringify(expected) },
      asked: createAsked(charged, fingerprint, describeKind(input.payment)),
      request: () => api.call('transactions.create', { body }),
    };
    const tx = await guard.send({ what, proof }, memory, sending).catch((err: unknown) => Promise.reject(saved ? saved.alsoSay(err) : err));
    await ctx.out.show(tx, TRANSACTION_VIEW);
    if (tx.status === 'failed') {
      const last = Array.isArray(tx.history) ? tx.history.at(-1) : undefined;
      const reason = (last as { response_message?: string } | undefined)?.response_message;
      const error = new CliError(`transaction ${tx.id} failed${reason ? `: ${reason}` : ''}`, ExitCode.rejected);
      throw saved ? saved.alsoSay(error, true) : error;
    }
    ctx.log.status(`Created transaction ${tx.id} (${tx.status}, ${formatMoney(tx.amount ?? centsToDecimalString(input.amountCents), tx.currency ?? input.currency)})`);
  }), approved);
}

/**
 * What a sale this create makes looks like, without card data: the amount, the payment type and
 * what pays (a card's first and last four digits and expiry, a card on file, a buyer). Kept with
 * the intent, so a later run tells this charge from another with the same reference.
 */
interface ExpectedSale {
  amount_cents: number;
  payment_type: PaymentType;
  card?: { first4: string; last4: string; month: number; year: number };
  card_id?: string;
  customer?: string;
}

function expectedSale(input: CreateInput): ExpectedSale {
  const { payment } = input;
  const sale: ExpectedSale = { amount_cents: input.amountCents, payment_type: paymentTypeOf(payment) };
  if (payment.kind === 'card' || payment.kind === 'new_card') {
    const digits = payment.card.card_number.replace(/\D/g, '');
    sale.card = { first4: digits.slice(0, 4), last4: digits.slice(-4), month: Number(payment.card.expiration_month), year: Number(payment.card.expiration_year) };
  } else if (payment.kind === 'card_id') sale.card_id = payment.cardId;
  if ('customer' in payment && payment.customer !== undefined) sale.customer = payment.customer;
  return sale;
}

const centsOfSale = (tx: Transaction) => {
  try {
    return decimalStringToCents(tx.original_amount ?? tx.amount ?? '');
  } catch {
    return -1;
  }
};

/** Whether `tx` is the sale `expected` describes (its reference checked apart). */
export function saleMatches(expected: ExpectedSale, tx: Transaction): boolean {
  if (centsOfSale(tx) !== expected.amount_cents) return false;
  const type = tx.payment_type === 'bolepix' && expected.payment_type === 'boleto' ? 'boleto' : tx.payment_type;
  if (type !== undefined && type !== expected.payment_type) return false;
  const method = (tx.payment_method ?? {}) as Record<string, unknown>;
  // The card as far as the sale tells it: digits and expiry it gives must be this card's.
  if (expected.card) {
    const { first4, last4, month, year } = expected.card;
    if (method.first4_digits !== undefined && String(method.first4_digits) !== first4) return false;
    if (method.last4_digits !== undefined && String(method.last4_digits) !== last4) return false;
    if (method.expiration_month !== undefined && Number(method.expiration_month) !== month) return false;
    if (method.expiration_year !== undefined && Number(method.expiration_year) !== year) return false;
  }
  if (expected.card_id && method.id !== undefined && method.id !== expected.card_id) return false;
  if (expected.customer && typeof tx.customer === 'string' && tx.customer !== expected.customer) return false;
  return true;
}

/** The sales with this reference that this create may have made, less those other intents are known to have made. */
function candidatesFor(intent: Intent, found: Transaction[], others: Intent[]): Transaction[] {
  const expected = JSON.parse(intent.before ?? '{}') as ExpectedSale;
  const claimed = new Set(others.map((o) => o.proof).filter((p): p is string => p !== null));
  return found.filter((t) => t.reference_id === intent.target && !claimed.has(t.id) && saleMatches(expected, t));
}

/** A create is proven by a sale with its reference, amount and card (or buyer), one per unresolved create. */
function createProof(intent: Intent, found: Transaction[], others: Intent[]): Proof {
  const candidates = candidatesFor(intent, found, others);
  if (candidates.length === 0) return { kind: 'not_seen' };
  const rivals = others.filter((o) => UNRESOLVED.includes(o.state) && o.operation === intent.operation).length;
  if (candidates.length > rivals) return { kind: 'applied', proof: candidates[0]?.id ?? null };
  return { kind: 'ambiguous', why: `${candidates.length} matching sale(s) with reference_id ${intent.target} for ${rivals + 1} unresolved creates` };
}

function createdOf(found: Transaction[], expected: ExpectedSale, memory: Intent[]): Transaction | undefined {
  const mine = memory.at(-1);
  return found.find((t) => t.id === mine?.proof) ?? found.find((t) => saleMatches(expected, t));
}

/**
 * `payctl-<uuid>`, never with twelve digits in a row: messages mask such a run as a card number
 * might be (about one uuid in 300 has one), and a reference the user is told to look up must be
 * readable whole.
 */
export function generatedReference(): string {
  for (;;) {
    const reference = `payctl-${randomUUID()}`;
    if (!/\d{12}/.test(reference)) return reference;
  }
}

function describeKind(payment: Payment): string {
  return paymentTypeOf(payment) === 'credit' ? 'card' : paymentTypeOf(payment);
}

/**
 * What makes two creates "the same request", without card data: the body with the reference left
 * out and a card reduced to its last four digits and expiry, hashed.
 */
export function createFingerprint(body: Record<string, unknown>): string {
  const { reference_id: _reference, ...rest } = body;
  const source = rest.source as { card?: Record<string, unknown> } | undefined;
  const card = source?.card;
  const safeCard = card && typeof card.card_number === 'string' ? { last4: card.card_number.slice(-4), month: card.expiration_month, year: card.expiration_year } : card;
  const shape = JSON.stringify({ ...rest, ...(source ? { source: { ...source, card: safeCard } } : {}) });
  return createHash('sha256').update(shape).digest('hex');
}

/**
 * The transaction carrying `reference`, if any. Only an exact match counts: a service that
 * ignored the filter must not make another sale look like ours.
 */
async function findByReference(ctx: Factory, reference: string): Promise<Transaction[]> {
  const api = await ctx.api();
  // The client checks the page and every item against the transaction schema: an answer that is
  // not a list of transactions proves nothing either way, and is refused there (exit 8).
  const page = await api.call('transactions.list', { query: { reference_id: reference, limit: 100 } });
  return page.items.filter((t) => t.reference_id === reference);
}

// ---------------------------------------------------------------------------------------------
// A create as the team's rules judge it and an approver reads it. Card details never leave the
// process: the digest is taken over the create's fingerprint (a card by its last four digits and
// expiry) and its reference, and a charge of a card typed in cannot be replayed by anyone else.

/** The command that makes exactly this sale again, or null when its flags cannot say it (a card typed in, boleto options, splits). */
export function createReplay(input: CreateInput): string[] | null {
  const { payment } = input;
  if (input.splits && input.splits.length > 0) return null;
  const words = ['transactions', 'create', '--amount-cents', String(input.amountCents), '--currency', input.currency, '--reference-id', input.referenceId, '--on-behalf-of', input.onBehalfOf];
  if (input.description !== undefined) words.push('--description', input.description);
  for (const [key, value] of Object.entries(input.metadata ?? {})) words.push('--metadata', `${key}=${value}`);
  const paid = paymentWords(payment);
  return paid === null ? null : [...words, ...paid];
}

function paymentWords(payment: Payment): string[] | null {
  const card = (p: { installments?: number; capture: boolean }) => [...(p.installments !== undefined ? ['--installments', String(p.installments)] : []), ...(p.capture ? [] : ['--no-capture'])];
  switch (payment.kind) {
    case 'card_id':
      return ['--card', payment.cardId, ...(payment.customer !== undefined ? ['--customer', payment.customer] : []), ...card(payment)];
    case 'customer':
      return ['--customer', payment.customer, ...card(payment)];
    case 'boleto':
      return ['--payment-type', 'boleto', '--customer', payment.customer];
    case 'pix':
      return ['--payment-type', 'pix', ...(payment.customer !== undefined ? ['--customer', payment.customer] : []), ...(payment.expiresAt !== undefined ? ['--pix-expires-at', payment.expiresAt] : [])];
    default:
      return null;
  }
}

/** What a rule judges of a create, with `body` as sent (its card reduced to the fingerprint's terms). */
export function createAsked(input: CreateInput, fingerprint: string, kind: string): AskedMove {
  const amount = formatMoney(centsToDecimalString(input.amountCents), input.currency);
  const replay = createReplay(input);
  const card = input.payment.kind === 'card' ? ` (card ••••${input.payment.card.card_number.slice(-4)})` : '';
  const buyer = 'customer' in input.payment && input.payment.customer !== undefined ? ` for buyer ${input.payment.customer}` : '';
  return {
    body: { fingerprint, reference_id: input.referenceId },
    amountCents: input.amountCents,
    currency: input.currency,
    summary: async () => `Create a ${kind} transaction of ${amount}${card}${buyer}, reference_id ${input.referenceId}${replay === null ? ' (its details cannot be sent by another person: run it again once approved)' : ''}`,
    replay,
  };
}
