import * as z from 'zod/mini';
// zod's core by name, not as z.core: a namespace reached through another keeps all of it in the
// bundle (its 40 locales and its JSON Schema writer, ~370 KB that every checked answer would load).
import { $constructor, $ZodObjectJIT, $ZodOptional, util } from 'zod/v4/core';

// Building blocks of every resource schema. Every error message below is what was expected,
// phrased to follow "expected": the issue formatter (describe-issues.ts) prints
// "<field>: expected <message>", so none of zod's default texts ("Invalid input") reaches a user.
//
// Strict where payctl relies on a field (ids, statuses, amounts); lenient where the provider is:
// unknown fields are kept (looseObject), informational fields may be missing or null.

export const nonEmptyString = z.string({ error: 'a string' }).check(z.minLength(1, 'a non-empty string'));

export const anyString = z.string({ error: 'a string' });

/** An id payctl passes back to the service in a path: non-empty, no slash, no control character. */
export const resourceId = z
  .string({ error: 'a string' })
  .check(z.regex(/^[^\s/?#\u0000-\u001f\u007f]{1,128}$/, 'an id of 1 to 128 characters without spaces or slashes'));

/** A status payctl reports and branches on: a short lower-case word such as "succeeded" or "over-due". */
export const status = z.string({ error: 'a string' }).check(z.regex(/^[A-Za-z][A-Za-z_-]{0,39}$/, 'a status word like "succeeded"'));

const DECIMAL = 'a decimal string like "10.00"';
/**
 * Amounts of transactions, receivables, balances and transfers: decimal strings in reais ("10.50").
 * A number is refused even where the provider's file types one (its PIX answer): 1050 could be
 * reais or cents, and payctl never guesses about money. Fractions of a centavo are refused too.
 */
export const decimalAmount = z.string({ error: DECIMAL }).check(z.regex(/^-?\d{1,14}(\.\d{1,2}0*)?$/, DECIMAL));
/** Amounts of plans, subscriptions and invoices are integer cents. */
export const integerCents = z.int({ error: 'an integer number of cents' });

const COUNT = 'a number or a numeric string';
/** Counts in list envelopes: the provider sends `total` as a number or as "42". */
export const count = z.union([z.number({ error: COUNT }), z.string({ error: COUNT }).check(z.regex(/^\d+$/, COUNT))], { error: COUNT });

/** An informational text field: may be missing or null; a string when present. */
export const text = z.optional(z.nullable(anyString));

/** true or false. */
export const bool = z.boolean({ error: 'true or false' });

/** An informational flag. */
export const flag = z.optional(z.nullable(bool));

/** A whole number that may be missing or null (installments, retries, intervals). */
export const optionalInt = z.optional(z.nullable(z.int({ error: 'a whole number' })));

/** Free-form key/value data the service keeps for the client. */
export const keyValues = z.record(z.string(), z.unknown(), { error: 'an object' });
export const metadata = z.optional(z.nullable(keyValues));

/**
 * A field payctl only shows, of whatever type the service sends: never checked, and a value with
 * nothing below it to --fields (schemas/fields.ts knows it by identity).
 */
export const shown = z.optional(z.unknown());

/** A field payctl shows whatever it holds: --fields may name anything below it. */
export const freeForm = z.optional(z.unknown());

/** A nested object payctl shows but does not read into. */
export const anyObject = z.optional(z.nullable(z.looseObject({}, { error: 'an object' })));

/** A list of strings (event types, payment methods, ids). */
export const stringList = z.optional(z.nullable(z.array(anyString, { error: 'an array of strings' })));

/** An amount that may be missing or null (fees, gross amounts of informational objects). */
export const optionalAmount = z.optional(z.nullable(decimalAmount));

/**
 * zod/mini checks an object field by field through generic code; zod's full build compiles each
 * object's check into one function the first time it runs. A long list checks thousands of
 * resources, so they get the compiled check: zod's own core class, dressed as a mini schema,
 * without the full build's 70 KB of methods. Measured on 100-item transaction pages, the check
 * takes half the time (9.2 → 4.7 µs a transaction).
 */
const compiledObjectCore: z.core.$constructor<z.core.$ZodObject> = $ZodObjectJIT;
const miniType: z.core.$constructor<z.ZodMiniType> = z.ZodMiniType;
const CompiledMiniObject = $constructor('CompiledMiniObject', (inst: z.ZodMiniObject, def: z.core.$ZodObjectDef) => {
  compiledObjectCore.init(inst, def);
  miniType.init(inst, def);
});

/** An object that keeps every field it was given, checked or not: output prints the API's own object. */
export function looseObject<Shape extends z.core.$ZodLooseShape>(shape: Shape): z.ZodMiniObject<Shape, z.core.$loose> {
  return new CompiledMiniObject({ type: 'object', shape, catchall: z.unknown(), ...util.normalizeParams({ error: 'an object' }) }) as unknown as z.ZodMiniObject<Shape, z.core.$loose>;
}

/**
 * `z.optional(z.nullable(reading))` as zod builds it (its definition, and so what --fields and the
 * tolerant readings find in it, unchanged), checked in one step: missing or null passes, anything
 * else is `reading`'s to check. The CLI reads every field it does not rely on so (tolerant.ts), a
 * long list every field of every item, and each layer of wrapping was two calls more per field:
 * a fifth of the time a page of transactions took to check (124 instead of 154 ms for 20,000).
 */
const optionalCore: z.core.$constructor<z.core.$ZodOptional> = $ZodOptional;
const MissingOrNull = $constructor('MissingOrNull', (inst: z.ZodMiniOptional, def: z.core.$ZodOptionalDef) => {
  optionalCore.init(inst, def);
  miniType.init(inst, def);
  const reading = (def.innerType._zod.def as unknown as { innerType: z.ZodMiniType }).innerType;
  // zod's optional stands a value in for a missing one only when its inner type has a default.
  if (reading._zod.optin === 'defaulted') return;
  inst._zod.parse = (payload, ctx) => (payload.value === undefined || payload.value === null ? payload : reading._zod.run(payload, ctx));
});

/** `reading`, or missing, or null: `z.optional(z.nullable(reading))`, checked in one step. */
export function missingOrNull(reading: z.ZodMiniType): z.ZodMiniType {
  return new MissingOrNull({ type: 'optional', innerType: z.nullable(reading) });
}
