// The contract between the sandbox and the CLI: every answer the sandbox gives must fit the schema
// the CLI checks that operation's answers against (src/provider/schemas), so the emulation cannot drift
// from what the client accepts. Used by the sandbox tests' HTTP client on every 2xx JSON answer.
import { expect } from 'vitest';
import type { Operation } from '../../src/provider/endpoints.js';
import { operationOf } from '../../src/provider/operation-of.js';
import { answerOf } from '../../src/provider/schemas/answers.js';
import { findAnswerMismatch } from '../../src/provider/schemas/index.js';

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
