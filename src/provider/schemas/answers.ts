// What every operation answers, and what that answer is called in a message. Kept apart from the
// schemas themselves, which need zod: the client reads this table on every answer and loads zod
// (schemas/index.ts) only once an answer has arrived to be checked, never on start-up.

import type { Operation } from '../endpoints.js';

/** The resources payctl reads and writes; each has a schema in schemas/index.ts. */
export type Resource =
  | 'transaction'
  | 'split rule'
  | 'cancellation letter'
  | 'card token'
  | 'card'
  | 'buyer'
  | 'seller'
  | 'source'
  | 'boleto'
  | 'boleto cancellation'
  | 'receipt'
  | 'acknowledgement'
  | 'receivable'
  | 'plan'
  | 'subscription'
  | 'invoice'
  | 'balance'
  | 'balance history entry'
  | 'transfer'
  | 'future entry'
  | 'webhook'
  | 'event'
  | 'event replay'
  | 'removal'
  | 'sandbox clock'
  | 'sandbox volume report';

/**
 * `one`: the answer is the resource. `list`: a list envelope whose items are the resource.
 * `removal`: a DELETE's answer, which may also be empty (204).
 */
export interface AnswerShape {
  resource: Resource;
  shape: 'one' | 'list' | 'removal';
}

// Literal types, so that an operation's answer type can be read off the table (see answer-types.ts).
const one = <R extends Resource>(resource: R) => ({ resource, shape: 'one' }) as const;
const list = <R extends Resource>(resource: R) => ({ resource, shape: 'list' }) as const;
const removal = { resource: 'removal', shape: 'removal' } as const;

/** Every operation of the endpoint table but `receipts.render`, whose answer is an HTML page. */
export const answers = {
  'transactions.create': one('transaction'),
  'transactions.list': list('transaction'),
  'transactions.get': one('transaction'),
  'transactions.update': one('transaction'),
  'transactions.void': one('transaction'),
  'transactions.capture': one('transaction'),
  'transactions.cancellationLetter': one('cancellation letter'),
  'transactions.approve': one('transaction'),
  'transactions.splits.list': list('split rule'),
  'transactions.splits.add': one('split rule'),
  'transactions.splits.get': one('split rule'),
  'transactions.splits.remove': removal,
  'cards.tokenize': one('card token'),
  'cards.associate': one('card'),
  'cards.get': one('card'),
  'cards.remove': removal,
  'sellers.createIndividual': one('seller'),
  'sellers.createBusiness': one('seller'),
  'sellers.list': list('seller'),
  'sellers.get': one('seller'),
  'sellers.updateIndividual': one('seller'),
  'sellers.updateBusiness': one('seller'),
  'sellers.remove': removal,
  'transactions.listBySeller': list('transaction'),
  'subscriptions.listBySeller': list('subscription'),
  'invoices.listBySeller': list('invoice'),
  'receivables.listBySeller': list('receivable'),
  'buyers.create': one('buyer'),
  'buyers.list': list('buyer'),
  'buyers.get': one('buyer'),
  'buyers.update': one('buyer'),
  'buyers.remove': removal,
  'buyers.search': one('buyer'),
  'sources.create': one('source'),
  'sources.get': one('source'),
  'sources.remove': removal,
  'boletos.get': one('boleto'),
  'boletos.send': one('acknowledgement'),
  'boletos.cancel': one('boleto cancellation'),
  'receipts.get': one('receipt'),
  'receipts.email': one('acknowledgement'),
  'receipts.sms': one('acknowledgement'),
  'receivables.get': one('receivable'),
  'receivables.listByTransaction': list('receivable'),
  'plans.create': one('plan'),
  'plans.list': list('plan'),
  'plans.get': one('plan'),
  'plans.update': one('plan'),
  'plans.remove': removal,
  'subscriptions.create': one('subscription'),
  'subscriptions.list': list('subscription'),
  'subscriptions.get': one('subscription'),
  'subscriptions.update': one('subscription'),
  'subscriptions.remove': removal,
  'subscriptions.suspend': one('subscription'),
  'subscriptions.reactivate': one('subscription'),
  'invoices.create': one('invoice'),
  'invoices.list': list('invoice'),
  'invoices.get': one('invoice'),
  'invoices.remove': removal,
  'invoices.approve': one('invoice'),
  'invoices.refund': one('invoice'),
  'balances.accountsByBuyer': list('balance'),
  'balances.history': list('balance history entry'),
  'balances.historyByAccount': list('balance history entry'),
  'balances.historyByBuyer': list('balance history entry'),
  'balances.get': one('balance'),
  'balances.getBySeller': one('balance'),
  'balances.current': one('balance'),
  'balances.currentBySeller': one('balance'),
  'balances.historyBySeller': list('balance history entry'),
  'transfers.list': list('transfer'),
  'transfers.listBySeller': list('transfer'),
  'transfers.get': one('transfer'),
  'transfers.transactions': list('transaction'),
  'futureEntries.list': list('future entry'),
  'webhooks.create': one('webhook'),
  'webhooks.list': list('webhook'),
  'webhooks.get': one('webhook'),
  'webhooks.remove': removal,
  'events.list': list('event'),
  'events.get': one('event'),
  'events.replay': one('event replay'),
  'sandbox.clock': one('sandbox clock'),
  'sandbox.advance': one('sandbox clock'),
  'sandbox.generate': one('sandbox volume report'),
} as const satisfies Record<Exclude<Operation, 'receipts.render'>, AnswerShape>;

/** The answer an operation of the table gives; undefined for `payctl api`'s own endpoints and HTML. */
export function answerOf(operation: unknown): AnswerShape | undefined {
  return typeof operation === 'string' && Object.hasOwn(answers, operation) ? (answers[operation as keyof typeof answers] as AnswerShape) : undefined;
}

/** "transaction", "transaction list": what an answer is called in a message. */
export function answerNoun(answer: AnswerShape): string {
  return answer.shape === 'list' ? `${answer.resource} list` : answer.resource;
}

/** "a transaction", "a transaction list": what a message says the answer should have been. */
export function describeAnswer(answer: AnswerShape): string {
  return withArticle(answerNoun(answer));
}

/** What `pages()` expects of every answer. */
export const LIST_PAGE = 'list page';

/** "a transaction", "an invoice". */
export function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** What a JSON value is, by kind only: "null", "an array", "a string". Never the value itself. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'undefined':
      return 'nothing';
    default:
      return 'an object';
  }
}
