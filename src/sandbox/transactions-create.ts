import { randomUUID } from 'node:crypto';
import { findCustomer } from './buyer-ops.js';
import { formatAddress, payerInput, registerBuyer, type BuyerInput } from './buyers.js';
import { findCard } from './card-ops.js';
import { cardPaymentMethod, parseCardInput, storeCard } from './cards.js';
import { SandboxError, throwProblems, type Problem } from './errors.js';
import { requireSeller, sellerOnDocuments } from './sellers.js';
import type { JsonObject } from './http.js';
import { newId, randomDigits } from './ids.js';
import { parseCents } from './money.js';
import { boletoBarcode, digitableLine, pixEmv } from './payment-codes.js';
import { SANDBOX_FILES_ORIGIN } from '../provider/sandbox-account.js';
import { loadQrEncoder, qrCodePng } from './qr-png.js';
import { settleTransaction } from './settle.js';
import { parseSplitRules, requireRecipients } from './splits.js';
import { markTokenUsed } from './tokens.js';
import { addTransaction, type HistoryDraft, type SaleTerms } from './transaction-model.js';
import { dayAt, instantAt } from '../validate/date.js';
import { addDays, calendarDate, isoTimestamp, startOfDay } from './time.js';
import type {
  BoletoBase,
  BolepixPaymentMethod,
  BoletoPaymentMethod,
  CardRecord,
  InstallmentPlan,
  PixPaymentMethod,
  SandboxState,
  StoredTransaction,
} from './types.js';
import { newMetadata } from './validate.js';

// POST /v1/transactions. One path serves every variant; the body picks it (payment_type, then
// source or customer), following the provider's anyOf: direct authorization, customer id, card
// id, boleto (simple / complete), bolepix and pix.
//
// Creation runs in two steps. planCreateTransaction checks the body alone (every 400) before the
// state is locked; the plan it returns then resolves ids against the state (404s) and only
// changes the state once nothing can fail any more.

const BANK_CODE = '341';

export interface CreatePlan {
  (state: SandboxState, now: Date): StoredTransaction;
  /** Set when the plan needs a module loaded first (a bolepix, its QR encoder): await it before running the plan. */
  ready?: Promise<void>;
}

interface Common extends SaleTerms {
  customer: string | undefined;
}

/** Each variant's checks of the body, by payment_type; each returns the plan of its sale. */
const PLANS: Record<string, (body: JsonObject, common: Common, problems: Problem[], now: Date) => CreatePlan> = {
  credit: planCard,
  boleto: planBoleto,
  bolepix: planBolepix,
  pix: planPix,
};

/**
 * The body has met the provider's request schema (request-schemas.ts): its fields have their
 * types, and the variant its fields. What is left is what the schema cannot know.
 */
export function planCreateTransaction(body: JsonObject, now: Date): CreatePlan {
  const paymentType = body.payment_type as string;
  const planVariant = Object.hasOwn(PLANS, paymentType) ? PLANS[paymentType] : undefined;
  if (!planVariant) {
    throw new SandboxError(400, 'invalid_parameter', `Invalid request: unsupported payment type: ${paymentType}.`, {
      reasons: [`payment_type: must be one of ${Object.keys(PLANS).join(', ')}`],
    });
  }
  const problems: Problem[] = [];
  const common = parseCommon(body, problems);
  const plan = planVariant(body, common, problems, now);
  const checked: CreatePlan = (state, at) => {
    requireRecipients(state, common.splitRules);
    requireSeller(state, common.onBehalfOf);
    return plan(state, at);
  };
  checked.ready = plan.ready;
  return checked;
}

function parseCommon(body: JsonObject, problems: Problem[]): Common {
  const source = body.payment_type === 'credit' ? (body.source as JsonObject | undefined) : undefined;
  // Seed 4.1 carries amount and currency inside source, the provider's file at the top level; the
  // schema has seen to it that they are in one place at least, and agree when in both.
  const cents = parseCents(source?.amount ?? body.amount) as number;
  const onBehalfOf = body.on_behalf_of as string;
  return {
    onBehalfOf,
    referenceId: (body.reference_id as string | undefined) ?? null,
    description: (body.description as string | undefined) ?? null,
    metadata: newMetadata(body.metadata),
    customer: body.customer as string | undefined,
    cents,
    currency: String(source?.currency ?? body.currency).toUpperCase(),
    splitRules: parseSplitRules(body.split_rules, cents, onBehalfOf, problems),
  };
}

// --- credit card -------------------------------------------------------------------------------

/** Seed 4.1 sends the text "true"; left out, the sale is captured. */
export function parseCapture(value: unknown): boolean {
  return value === undefined || value === null || value === true || value === 'true';
}

export function parseInstallments(value: unknown): InstallmentPlan | null {
  if (value === undefined || value === null) return null;
  return { mode: 'interest_free', number_installments: (value as { number_installments: number }).number_installments };
}

function planCard(body: JsonObject, common: Common, problems: Problem[], now: Date): CreatePlan {
  const source = body.source as JsonObject | undefined;
  const capture = parseCapture(body.capture ?? source?.capture);
  const installments = parseInstallments(body.installment_plan ?? source?.installment_plan);
  // A stored card's id or card data; without either, the sale charges the customer's card on file.
  const storedId = (source?.card as JsonObject | undefined)?.id as string | undefined;
  const direct = source?.card && storedId === undefined ? parseCardInput(source.card as JsonObject, 'source.card', problems, now) : undefined;
  throwProblems(problems);

  return (state, at) => {
    const customer = common.customer ? findCustomer(state, common.customer) : undefined;
    let card: CardRecord;
    if (storedId !== undefined) card = findCard(state, storedId);
    else if (direct) card = storeCard(state, direct, customer?.id ?? null, at);
    else {
      const stored = customer?.default_credit ? state.cards.get(customer.default_credit) : undefined;
      if (!stored) {
        throw new SandboxError(
          400,
          'invalid_parameter',
          `The customer (id: ${customer?.id ?? ''}) has no card on file; associate a card or send card data.`,
          { reasons: ['customer: has no default card'] },
        );
      }
      card = stored;
    }
    // A card made just now has no token to spend.
    if (!direct) markTokenUsed(state, card.id);

    const status = card.declines ? 'failed' : capture ? 'succeeded' : 'pre_authorized';
    const outcome = card.declines
      ? { response_code: '05', response_message: 'Card declined by the issuer (do not honor).' }
      : { response_message: capture ? 'Transaction approved and captured.' : 'Transaction pre-authorized.' };
    const history: HistoryDraft[] = [
      { operation_type: 'created', status: 'succeeded', amount_cents: common.cents },
      { operation_type: 'authorization', status, amount_cents: common.cents, ...outcome, acquirer: true },
    ];
    const created = addTransaction(state, common, {
      payment_type: 'credit',
      status,
      customer: customer?.id ?? card.customer,
      payment_method: cardPaymentMethod(card, state.marketplace_id),
      installment_plan: installments,
      card_id: card.id,
    }, history, at);
    settleTransaction(state, created, at);
    return created;
  };
}

// --- boleto, bolepix -----------------------------------------------------------------------------

/** A due date (YYYY-MM-DD, as the schema has it), not before `min`. */
function parseDueDate(value: unknown, field: string, fallback: Date, min: Date, problems: Problem[]): Date {
  if (value === undefined || value === null) return fallback;
  const day = dayAt(value as string) as Date;
  if (day.getTime() < min.getTime()) problems.push({ field, message: `must not be before ${calendarDate(min)}` });
  return day;
}

/** A boleto's or bolepix's option as sent (the schema has checked its shape), or null for none. */
function sentOrNull(value: unknown): Record<string, unknown> | null {
  return (value ?? null) as Record<string, unknown> | null;
}

/**
 * Seed 2.2's fields, the same for a boleto and a bolepix: the sale's payer, seller and amount,
 * numbered in the boleto sequence, with a barcode for the amount and due date.
 */
function boletoBase(state: SandboxState, common: Common, customer: string, address: string | null, due: Date, limit: Date, at: Date): BoletoBase {
  const seller = sellerOnDocuments(state, common.onBehalfOf);
  const stamp = isoTimestamp(at);
  state.counters.boleto_sequence += 1;
  const id = newId(state);
  return {
    id,
    service_boleto_id: newId(state),
    description: common.description ?? `Boleto ${seller.name}`,
    reference_number: randomDigits(8),
    document_number: randomDigits(10),
    expiration_date: calendarDate(due),
    payment_limit_date: calendarDate(limit),
    recipient: seller.name,
    bank_code: BANK_CODE,
    customer,
    address,
    sequence: String(state.counters.boleto_sequence),
    url: `${SANDBOX_FILES_ORIGIN}/boletos/${id}.html`,
    barcode: boletoBarcode(BANK_CODE, common.cents, due),
    paid_at: null,
    created_at: stamp,
    updated_at: stamp,
    status: 'not_paid',
  };
}

function planBoleto(body: JsonObject, common: Common, problems: Problem[], now: Date): CreatePlan {
  const pm = body.payment_method as JsonObject | undefined;
  // Without a payer, the schema has seen to it that customer is given.
  const payer = pm?.buyer === undefined ? undefined : payerInput(pm.buyer as JsonObject);
  const today = startOfDay(now);
  const expiration = parseDueDate(pm?.expiration_date, 'payment_method.expiration_date', addDays(today, 3), today, problems);
  const limit = parseDueDate(pm?.payment_limit_date, 'payment_method.payment_limit_date', expiration, expiration, problems);
  throwProblems(problems);

  return (state, at) => {
    const customer = common.customer ? findCustomer(state, common.customer) : registerBuyer(state, payer as BuyerInput, at);
    const { id, ...boleto } = boletoBase(state, common, customer.id, formatAddress(payer?.address ?? customer.address), expiration, limit, at);
    const paymentMethod: BoletoPaymentMethod = {
      id,
      resource: 'boleto',
      ...boleto,
      body_instructions: (pm?.body_instructions as string[] | null | undefined) ?? [],
      billing_instructions: sentOrNull(pm?.billing_instructions),
    };
    return addPending(state, common, 'boleto', customer.id, paymentMethod, expiration, at);
  };
}

function planBolepix(body: JsonObject, common: Common, problems: Problem[], now: Date): CreatePlan {
  const pm = body.payment_method as JsonObject | undefined;
  const today = startOfDay(now);
  const due = parseDueDate(pm?.due_at, 'payment_method.due_at', addDays(today, 3), today, problems);
  const limit = parseDueDate(pm?.payment_limit_at, 'payment_method.payment_limit_at', due, due, problems);
  throwProblems(problems);

  const plan: CreatePlan = (state, at) => {
    const seller = sellerOnDocuments(state, common.onBehalfOf);
    const customer = findCustomer(state, common.customer as string);
    const { id, ...boleto } = boletoBase(state, common, customer.id, formatAddress(customer.address), due, limit, at);
    const emv = pixEmv(`sandbox.payctl.invalid/pix/qr/v2/${randomUUID()}`, seller.name, 'SAO PAULO');
    const paymentMethod: BolepixPaymentMethod = {
      id,
      resource: 'bolepix',
      ...boleto,
      customer: customer.id,
      due_at: boleto.expiration_date,
      payment_limit_at: boleto.payment_limit_date,
      digitable_line: digitableLine(boleto.barcode),
      emv,
      base64: qrCodePng(emv).toString('base64'),
      interest: sentOrNull(pm?.interest),
      late_fee: sentOrNull(pm?.late_fee),
      discount: sentOrNull(pm?.discount),
      billing_message_list: sentOrNull(pm?.billing_message_list),
    };
    return addPending(state, common, 'bolepix', customer.id, paymentMethod, due, at);
  };
  // The QR image is drawn inside the plan, which runs synchronously under the state's lock:
  // the encoder is loaded now, and the caller awaits `ready` before taking the lock.
  plan.ready = loadQrEncoder();
  return plan;
}

// --- pix -----------------------------------------------------------------------------------------

const DEFAULT_PIX_LIFETIME_MS = 60 * 60 * 1000;

function planPix(body: JsonObject, common: Common, problems: Problem[], now: Date): CreatePlan {
  // A date-time with its offset, as the schema has it.
  const sent = body.pix_expiration_date_time as string | undefined;
  const expiresAt = sent === undefined ? new Date(now.getTime() + DEFAULT_PIX_LIFETIME_MS) : (instantAt(sent) as Date);
  if (expiresAt.getTime() <= now.getTime()) problems.push({ field: 'pix_expiration_date_time', message: 'must be in the future' });
  throwProblems(problems);

  return (state, at) => {
    const seller = sellerOnDocuments(state, common.onBehalfOf);
    const customer = common.customer ? findCustomer(state, common.customer) : undefined;
    const stamp = isoTimestamp(at);
    const id = newId(state);
    const location = `sandbox.payctl.invalid/pix/qr/v2/${randomUUID()}`;
    const paymentMethod: PixPaymentMethod = {
      id,
      resource: 'pix',
      provider: 'sandbox',
      version: '1.0.0',
      type: 'DYNAMIC',
      reusable: false,
      allow_update: false,
      expiration_date: isoTimestamp(expiresAt),
      key: { type: 'EVP', value: randomUUID() },
      pix_link: `https://${location}`,
      qr_code: { emv: pixEmv(location, seller.name, 'SAO PAULO') },
      paid_at: null,
      created_at: stamp,
      updated_at: stamp,
      status: 'not_paid',
    };
    return addPending(state, common, 'pix', customer?.id ?? null, paymentMethod, expiresAt, at);
  };
}

function addPending(
  state: SandboxState,
  common: Common,
  paymentType: 'boleto' | 'bolepix' | 'pix',
  customer: string | null,
  paymentMethod: BoletoPaymentMethod | BolepixPaymentMethod | PixPaymentMethod,
  due: Date,
  at: Date,
): StoredTransaction {
  const created: HistoryDraft = { operation_type: 'created', status: 'succeeded', amount_cents: common.cents, response_message: 'Awaiting payment.' };
  return addTransaction(state, common, { payment_type: paymentType, status: 'pending', customer, payment_method: paymentMethod, due }, [created], at);
}
