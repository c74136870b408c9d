// Which operations' answers are checked against a schema, and what each answer is called in a
// message. Kept apart from the schemas themselves, which need zod: the client reads this table
// on every answer and loads zod only when an answer has a schema to meet (start-up cost).

import type { Operation } from '../endpoints.js';

export const checkedAnswers = {
  'transactions.create': 'transaction',
  'transactions.void': 'transaction',
  'transactions.capture': 'transaction',
  'transactions.get': 'transaction',
  'transactions.approve': 'transaction',
  'invoices.approve': 'invoice',
  'invoices.refund': 'invoice',
  'invoices.get': 'invoice',
  'boletos.cancel': 'boleto cancellation',
} as const satisfies Partial<Record<Operation, string>>;

export type CheckedOperation = keyof typeof checkedAnswers;

/** What `pages()` expects of every answer. */
export const LIST_PAGE = 'list page';

export function isChecked(operation: string): operation is CheckedOperation {
  return Object.hasOwn(checkedAnswers, operation);
}

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
