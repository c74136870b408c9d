import { endpoints, type Operation } from '../provider/endpoints.js';
import { hasRequestSchema, requestProblems } from '../provider/schemas/requests.js';
import { invalidParameters, type Problem } from './errors.js';
import type { JsonObject } from './http.js';
import type { Method } from './route.js';

// The provider's request schemas, which the CLI checks a body with before sending it, are the
// sandbox's first check too: a body that does not meet its operation's schema is answered the
// provider's 400 naming every field at fault, before a handler sees it. A handler checks only
// what the schema cannot know (a buyer that exists, an amount left to refund, a date not past).
// The sandbox adds one rule of its own here: a record it stores as sent takes only its own fields.

/** A path's shape: its literal segments, and `:` wherever a value goes (`{id}` or `:id`). */
function shapeOf(segments: readonly string[]): string {
  return segments.map((part) => (part.startsWith(':') || part.startsWith('{') ? ':' : part)).join('/');
}

const operations = new Map<string, Operation>();
for (const [operation, endpoint] of Object.entries(endpoints)) {
  operations.set(`${endpoint.method} ${shapeOf(endpoint.path.split('/').filter(Boolean))}`, operation as Operation);
}

interface Fields {
  accepted: readonly string[];
  /** What is said of a field not among them. */
  unknown: (accepted: string) => string;
  /** An update: an empty body is refused, naming this field. */
  update?: string;
}

const BUYER = ['first_name', 'last_name', 'email', 'phone_number', 'taxpayer_id', 'birthdate', 'description', 'address', 'metadata'];
const PLAN = ['name', 'description', 'amount', 'setup_amount', 'currency', 'frequency', 'interval', 'payment_methods', 'duration', 'grace_period', 'tolerance_period', 'metadata'];
const SELLER_COMMON = ['statement_descriptor', 'description', 'metadata'];
/** Each kind of seller's fields. */
const SELLER_FIELDS = {
  individual: ['first_name', 'last_name', 'email', 'phone_number', 'taxpayer_id', 'birthdate', 'address', ...SELLER_COMMON],
  business: ['business_name', 'business_email', 'business_phone', 'ein', 'business_opening_date', 'business_address', 'owner', ...SELLER_COMMON],
} as const satisfies Record<string, readonly string[]>;
const INDIVIDUAL = SELLER_FIELDS.individual;
const BUSINESS = SELLER_FIELDS.business;
const SUBSCRIPTION_UPDATE = ['amount', 'due_date', 'expiration_date', 'payment_method', 'card', 'plan', 'description', 'metadata'];

const notA = (what: string) => (accepted: string) => `is not a ${what} field (accepted: ${accepted})`;
const notAnUpdate = (accepted: string) => `cannot be updated (only ${accepted} can)`;
const seller = (kind: string) => (accepted: string) => `is not a field of an ${kind} seller (accepted: ${accepted})`;

const FIELDS: Partial<Record<Operation, Fields>> = {
  'buyers.create': { accepted: BUYER, unknown: notA('buyer') },
  'buyers.update': { accepted: BUYER, unknown: notA('buyer'), update: 'first_name' },
  'plans.create': { accepted: PLAN, unknown: notA('plan') },
  'plans.update': { accepted: PLAN, unknown: notA('plan') },
  'sellers.createIndividual': { accepted: INDIVIDUAL, unknown: seller('individual') },
  'sellers.updateIndividual': { accepted: INDIVIDUAL, unknown: seller('individual'), update: 'first_name' },
  'sellers.createBusiness': { accepted: BUSINESS, unknown: seller('business') },
  'sellers.updateBusiness': { accepted: BUSINESS, unknown: seller('business'), update: 'business_name' },
  'subscriptions.update': { accepted: SUBSCRIPTION_UPDATE, unknown: notAnUpdate, update: 'amount' },
  'transactions.update': { accepted: ['description', 'metadata'], unknown: notAnUpdate, update: 'description' },
};

function fieldProblems(fields: Fields, body: JsonObject): Problem[] {
  const accepted = fields.accepted.join(', ');
  const problems = Object.keys(body)
    .filter((key) => !(fields.accepted as readonly string[]).includes(key))
    .map((field) => ({ field, message: fields.unknown(accepted) }));
  if (fields.update && Object.keys(body).length === 0) problems.push({ field: fields.update, message: `nothing to update: give any of ${accepted}` });
  return problems;
}

/** Answers 400 when `body` does not meet the schema of the operation at `method` and `pattern`. */
export function checkBody(method: Method, pattern: readonly string[], body: JsonObject): void {
  const operation = operations.get(`${method} ${shapeOf(pattern)}`);
  if (operation === undefined) return;
  const fields = FIELDS[operation];
  const problems: Problem[] = [
    ...(hasRequestSchema(operation) ? requestProblems(operation, body).map(({ field, message }) => ({ field: field || 'body', message })) : []),
    ...(fields ? fieldProblems(fields, body) : []),
  ];
  if (problems.length > 0) throw invalidParameters(problems);
}
