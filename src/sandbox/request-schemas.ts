import { endpoints } from '../provider/endpoints.js';
import { hasRequestSchema, requestProblems } from '../provider/schemas/requests.js';
import { invalidParameters } from './errors.js';
import type { JsonObject } from './http.js';
import type { Method } from './route.js';

// The provider's request schemas, which the CLI checks a body with before sending it, are the
// sandbox's first check too: a body that does not meet its operation's schema is answered the
// provider's 400 naming every field at fault, before a handler sees it. A handler checks only
// what the schema cannot know (a buyer that exists, an amount left to refund).

/** A path's shape: its literal segments, and `:` wherever a value goes (`{id}` or `:id`). */
function shapeOf(segments: readonly string[]): string {
  return segments.map((part) => (part.startsWith(':') || part.startsWith('{') ? ':' : part)).join('/');
}

const operations = new Map<string, keyof typeof endpoints>();
for (const [operation, endpoint] of Object.entries(endpoints)) {
  if (hasRequestSchema(operation)) operations.set(`${endpoint.method} ${shapeOf(endpoint.path.split('/').filter(Boolean))}`, operation as keyof typeof endpoints);
}

/** Answers 400 when `body` does not meet the schema of the operation at `method` and `pattern`. */
export function checkBody(method: Method, pattern: readonly string[], body: JsonObject): void {
  const operation = operations.get(`${method} ${shapeOf(pattern)}`);
  if (operation === undefined || !hasRequestSchema(operation)) return;
  const problems = requestProblems(operation, body);
  if (problems.length > 0) throw invalidParameters(problems.map(({ field, message }) => ({ field: field || 'body', message })));
}
