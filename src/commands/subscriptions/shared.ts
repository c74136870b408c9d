import type { Context } from '../../context.js';
import { UsageError, ValidationError } from '../../errors.js';
import type { Column } from '../../output/render.js';
import { parseDate, validateId } from '../../validate/index.js';
import { amountFromFlags } from '../shared/amount.js';
import { centsForTable } from '../shared/cents.js';
import { notInThePast } from '../shared/dates.js';
import { optionalString } from '../shared/input.js';

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
  { key: 'customer', header: 'CUSTOMER', kind: 'id', optional: true },
  { key: 'plan', header: 'PLAN', kind: 'id', optional: true },
  { key: 'amount', header: 'AMOUNT', kind: 'money' },
  { key: 'status', header: 'STATUS', kind: 'status' },
  { key: 'due_date', header: 'NEXT DUE', kind: 'date' },
];

export const subscriptionRow = centsForTable('amount');

export function subscriptionId(args: string[]): string {
  return validateId(args[0] ?? '', 'subscription id', '<id>');
}

export async function getSubscription(ctx: Context, id: string): Promise<Subscription> {
  return (await ctx.api()).call<Subscription>('subscriptions.get', { params: { id } });
}

/** The fields create and update share, each checked: due date not past, expiry after it. */
export function scheduleFromFlags(options: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const plan = optionalString(options.plan);
  if (plan !== undefined) body.plan = validateId(plan, 'plan id', '--plan');
  const card = optionalString(options.card);
  if (card !== undefined) body.card = validateId(card, 'card id', '--card');
  const due = optionalString(options.dueDate);
  if (due !== undefined) body.due_date = notInThePast(parseDate(due, '--due-date'), '--due-date');
  const expiration = optionalString(options.expirationDate);
  if (expiration !== undefined) body.expiration_date = parseDate(expiration, '--expiration-date');
  if (typeof body.due_date === 'string' && typeof body.expiration_date === 'string' && body.expiration_date <= body.due_date) {
    throw new ValidationError('--expiration-date', `${body.expiration_date} is not after the due date ${body.due_date}`);
  }
  const amount = amountFromFlags(options);
  if (amount !== undefined) body.amount = amount;
  return body;
}

export function requireChanges(body: Record<string, unknown>): void {
  if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give at least one flag, e.g. --card or --due-date');
}
