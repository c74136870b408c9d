// The contract between the sandbox and the CLI: every answer the sandbox gives must fit the schema
// the CLI checks that operation's answers against (src/provider/schemas), so the emulation cannot drift
// from what the client accepts. Used by the sandbox tests' HTTP client on every 2xx JSON answer.
import { expect } from 'vitest';
import { endpoints, type Operation } from '../../src/provider/endpoints.js';
import { answerOf } from '../../src/provider/schemas/answers.js';
import { findAnswerMismatch } from '../../src/provider/schemas/index.js';

interface Route {
  operation: Operation;
  method: string;
  pattern: RegExp;
  params: number;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// Literal paths first, so /buyers/search is not taken for /buyers/{id}.
const routes: Route[] = Object.entries(endpoints)
  .map(([operation, endpoint]) => {
    const template = endpoint.path.replace(/\/$/, '');
    const body = template
      .split(/(\{\w+\})/)
      .map((part) => (part.startsWith('{') ? '[^/]+' : escape(part)))
      .join('');
    const prefix = endpoint.marketplaceScoped ? '(?:/marketplaces/[^/]+)?' : '';
    return {
      operation: operation as Operation,
      method: endpoint.method,
      pattern: new RegExp(`^/v1${prefix}${body}/?$`),
      params: (template.match(/\{/g) ?? []).length,
    };
  })
  .sort((a, b) => a.params - b.params);

/** The operation of the endpoint table a request is, or undefined (sandbox-only or unknown paths). */
export function operationOf(method: string, urlPath: string): Operation | undefined {
  const path = urlPath.split('?')[0] ?? '';
  return routes.find((route) => route.method === method && route.pattern.test(path))?.operation;
}

/** Operations whose answers were checked in this test file. */
export const checkedOperations = new Set<Operation>();

/** Fails the test when a successful answer does not fit the schema of its operation's answer. */
export function expectFitsContract(method: string, urlPath: string, body: unknown): void {
  const operation = operationOf(method, urlPath);
  const expected = answerOf(operation);
  if (!operation || !expected || body === undefined) return;
  const mismatch = findAnswerMismatch(expected, body);
  expect(mismatch, `the sandbox's answer to ${method} ${urlPath} (${operation}) does not fit the ${expected.resource} schema`).toBeUndefined();
  checkedOperations.add(operation);
}
