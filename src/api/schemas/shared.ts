import * as z from 'zod/mini';

// Every error message below is what was expected, phrased to follow "expected": the issue
// formatter (describe-issues.ts) prints "<field>: expected <message>", so none of zod's default
// texts ("Invalid input") reaches a user.

export const nonEmptyString = z.string({ error: 'a string' }).check(z.minLength(1, 'a non-empty string'));

export const anyString = z.string({ error: 'a string' });

const DECIMAL = 'a decimal string like "10.00"';
/** Amounts of transactions travel as decimal strings ("10.00"), never as numbers. */
export const decimalString = z.string({ error: DECIMAL }).check(z.regex(/^-?\d+(\.\d+)?$/, DECIMAL));

/** Amounts of invoices are integer cents. */
export const integerCents = z.int({ error: 'an integer number of cents' });

const COUNT = 'a number or a numeric string';
/** Counts in list envelopes: the provider sends `total` as a number or as "42". */
export const count = z.union([z.number({ error: COUNT }), z.string({ error: COUNT }).check(z.regex(/^\d+$/, COUNT))], { error: COUNT });

/** An object that keeps every field it was given, checked or not: output prints the API's own object. */
export function looseObject<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return z.looseObject(shape, { error: 'an object' });
}
