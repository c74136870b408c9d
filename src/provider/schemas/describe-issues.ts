import type * as z from 'zod/mini';
import { kindOf } from './answers.js';

/** At most this many problems are named: one line of error output, not a report. */
const SHOWN = 3;

/**
 * "id: expected a string", "amount: expected a decimal string like "10.00"", "expected an object,
 * got null". What was received is named by its kind only, never its value: an answer may carry
 * card data or keys that must not reach the terminal.
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[], input: unknown): string {
  const described = issues.slice(0, SHOWN).map((issue) => describeIssue(issue, input));
  const more = issues.length > SHOWN ? `; and ${issues.length - SHOWN} more` : '';
  return `${described.join('; ')}${more}`;
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const where = issue.path.length > 0 ? `${formatPath(issue.path)}: ` : '';
  const expected = issue.message?.trim() ? issue.message.trim() : 'something else';
  let got = '';
  if (issue.code === 'invalid_type') {
    const found = valueAt(input, issue.path);
    // A missing field is said by the field's name alone ("id: expected a string").
    if (found.present) got = `, got ${kindOf(found.value)}`;
  }
  return `${where}expected ${expected}${got}`;
}

function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text ? `.${String(key)}` : String(key);
  }
  return text;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): { present: boolean; value?: unknown } {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return { present: false };
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return { present: value !== undefined, value };
}
