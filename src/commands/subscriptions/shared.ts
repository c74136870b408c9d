import type { Factory } from '../../factory.js';
import { UsageError, ValidationError } from '../../errors.js';
import { AMOUNT_COLUMN, STATUS_COLUMN } from '../../output/columns.js';
import type { Column } from '../../output/render-options.js';
import { parseDate, validateId } from '../../validate/index.js';
import { amountFromFlags } from '../shared/amount.js';
import { centsForTable } from '../shared/cents.js';
import { notInThePast } from '../shared/dates.js';
import type { PaymentMethod } from '../plans/shared.js';
import { missingInput, optionalString, setGiven } from '../shared/input.js';
import type { ScheduleFlagValues } from './flags.js';

export interface Subscription {
  uuid: string;
  plan?: string;
  customer?: string;
  amount?: number;
  currency?: string;
  status?: string;
  due_date?: string;
  [key: string]: unknown;
}

export const SUBSCRIPTION_COLUMNS: Column[] = [
  { key: 'uuid', header: 'ID', kind: 'id' },
  // Ids of the buyer and the plan; on a terminal, their names.
  { key: 'customer', header: 'CUSTOMER', kind: 'id', optional: true, names: 'buyer' },
  { key: 'plan', header: 'PLAN', kind: 'id', optional: true, names: 'plan' },
  AMOUNT_COLUMN,
  STATUS_COLUMN,
  { key: 'due_date', header: 'NEXT DUE', kind: 'date' },
];

export const subscriptionRow = centsForTable('amount');

export function subscriptionId(args: string[]): string {
  return validateId(args[0] ?? '', 'subscription id', '<id>');
}

export async function getSubscription(ctx: Factory, id: string): Promise<Subscription> {
  return (await ctx.api()).call<Subscription>('subscriptions.get', { params: { id } });
}

/** How a subscription is paid: one of its plan's methods. */
export type { PaymentMethod };

/** The fields create and update share, each checked: due date not past, expiry after it, no card for a boleto. */
export function scheduleFromFlags(options: ScheduleFlagValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  setGiven(body, 'plan', optionalString(options.plan), (plan) => validateId(plan, 'plan id', '--plan'));
  // commander has checked it is one of the plans' PAYMENT_METHODS.
  const method = optionalString(options.paymentMethod);
  setGiven(body, 'payment_method', method);
  const card = optionalString(options.card);
  if (card !== undefined && method === 'boleto') {
    throw new UsageError('--card cannot be used with --payment-method boleto: a boleto subscription is paid by boleto and has no card');
  }
  setGiven(body, 'card', card, (id) => validateId(id, 'card id', '--card'));
  setGiven(body, 'due_date', optionalString(options.dueDate), (due) => notInThePast(parseDate(due, '--due-date'), '--due-date'));
  setGiven(body, 'expiration_date', optionalString(options.expirationDate), (expiration) => parseDate(expiration, '--expiration-date'));
  if (typeof body.due_date === 'string' && typeof body.expiration_date === 'string' && body.expiration_date <= body.due_date) {
    throw new ValidationError('--expiration-date', `${body.expiration_date} is not after the due date ${body.due_date}`);
  }
  setGiven(body, 'amount', amountFromFlags(options));
  return body;
}

/**
 * Refuses, before sending, a payment method the plan does not list. A plan that lists none (the
 * provider's answer may leave the field out) is left for the service to judge.
 */
export function checkPlanAccepts(plan: { uuid?: string; payment_methods?: unknown }, planId: string, method: PaymentMethod): void {
  const accepted = Array.isArray(plan.payment_methods) ? plan.payment_methods.map(String) : [];
  if (accepted.length === 0 || accepted.includes(method)) return;
  throw new ValidationError('--payment-method', `plan ${planId} does not accept ${method}; its payment methods are ${accepted.join(', ')}`);
}

/** The card the buyer is charged by default, for a card subscription given no --card; one without is asked for on a terminal. */
export async function buyersDefaultCard(ctx: Factory, customer: string): Promise<string> {
  const buyer = await (await ctx.api()).call<{ default_credit?: string | null }>('buyers.get', { params: { id: customer } });
  if (buyer.default_credit) return buyer.default_credit;
  if (!ctx.prompts.interactive) throw missingInput(ctx, [`--card (buyer ${customer} has no default card)`]);
  const { askArgument } = await import('../shared/ask-missing.js');
  return validateId(await askArgument(ctx, { noun: 'card', label: `Card id (buyer ${customer} has no default card)` }, '--card'), 'card id', '--card');
}

export function requireChanges(body: Record<string, unknown>): void {
  if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give at least one flag, e.g. --card or --due-date');
}
