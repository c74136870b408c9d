import { expect } from 'vitest';
import { ValidationError } from '../../src/errors.js';

/** Asserts `fn` throws a ValidationError for `flag` whose message matches `message`. */
export function expectValidationError(fn: () => unknown, flag: string, message?: RegExp): ValidationError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught, 'expected a ValidationError to be thrown').toBeInstanceOf(ValidationError);
  const error = caught as ValidationError;
  expect(error.flag).toBe(flag);
  expect(error.exitCode).toBe(2);
  expect(error.message.startsWith(`${flag}: `)).toBe(true);
  if (message) expect(error.message).toMatch(message);
  return error;
}
