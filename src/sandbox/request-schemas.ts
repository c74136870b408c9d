import type { Operation } from '../provider/endpoints.js';
import { hasRequestSchema, readRequest, requestSchemas } from '../provider/schemas/requests.js';
import { invalidParameters, throwProblems, type Problem } from './errors.js';
import type { JsonObject } from './http.js';
import type { BodyOf } from './route.js';

// The provider's request schemas, which the CLI checks a body with before sending it, are the
// sandbox's first check too: a body that does not meet its operation's schema is answered the
// provider's 400 naming every field at fault, before a handler sees it, and a handler is handed the
// body as the schema parsed it. A handler checks only what the schema cannot know (a buyer that
// exists, an amount left to refund, a date not past). The sandbox adds one rule of its own here: a
// record it stores as sent takes only its own fields.

interface Fields {
  /** The fields the record takes: its request schema's own, unless said otherwise. */
  accepted?: readonly string[];
  /** What is said of a field not among them. */
  unknown: (accepted: string) => string;
  /** An update: an empty body is refused, naming this field. */
  update?: string;
}

const notA = (what: string) => (accepted: string) => `is not a ${what} field (accepted: ${accepted})`;
const notAnUpdate = (accepted: string) => `cannot be updated (only ${accepted} can)`;
const seller = (kind: string) => (accepted: string) => `is not a field of an ${kind} seller (accepted: ${accepted})`;

const FIELDS: Partial<Record<keyof typeof requestSchemas, Fields>> = {
  'buyers.create': { unknown: notA('buyer') },
  'buyers.update': { unknown: notA('buyer'), update: 'first_name' },
  'plans.create': { unknown: notA('plan') },
  'plans.update': { unknown: notA('plan') },
  'sellers.createIndividual': { unknown: seller('individual') },
  'sellers.updateIndividual': { unknown: seller('individual'), update: 'first_name' },
  'sellers.createBusiness': { unknown: seller('business') },
  'sellers.updateBusiness': { unknown: seller('business'), update: 'business_name' },
  // The schema's other fields (customer, currency, on_behalf_of) are set once, at creation.
  'subscriptions.update': { accepted: ['amount', 'due_date', 'expiration_date', 'payment_method', 'card', 'plan', 'description', 'metadata'], unknown: notAnUpdate, update: 'amount' },
  'transactions.update': { unknown: notAnUpdate, update: 'description' },
};

function fieldProblems(operation: keyof typeof requestSchemas, fields: Fields, body: JsonObject): Problem[] {
  const own = fields.accepted ?? Object.keys(requestSchemas[operation].def.shape);
  const accepted = own.join(', ');
  const problems = Object.keys(body)
    .filter((key) => !own.includes(key))
    .map((field) => ({ field, message: fields.unknown(accepted) }));
  if (fields.update && Object.keys(body).length === 0) problems.push({ field: fields.update, message: `nothing to update: give any of ${accepted}` });
  return problems;
}

/**
 * `body` as the request schema of `operation` parses it, or as sent for an operation without one;
 * 400 naming every field at fault when it does not meet the schema.
 */
export function checkedBody<O extends Operation>(operation: O, body: JsonObject): BodyOf<O>;
// TypeScript cannot follow BodyOf through hasRequestSchema: the signature above says what this one does.
export function checkedBody(operation: Operation, body: JsonObject): unknown {
  if (!hasRequestSchema(operation)) return body;
  const fields = FIELDS[operation];
  const own = fields ? fieldProblems(operation, fields, body) : [];
  const read = readRequest(operation, body);
  if (!read.ok) throw invalidParameters([...read.problems.map(({ field, message }) => ({ field: field || 'body', message })), ...own]);
  throwProblems(own);
  return read.body;
}
