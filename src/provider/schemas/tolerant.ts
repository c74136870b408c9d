import * as z from 'zod/mini';
import { anyString, looseObject, missingOrNull } from './shared.js';

// The provider's answers are described once, strictly: every field, its exact type, no field more
// (transaction.ts). The sandbox's records are that description's types, and it is what the
// sandbox's answers are held to. payctl itself reads the real service through a tolerant version
// made here from it: a field may be missing or null unless payctl relies on it, fields it does not
// know are kept (and printed), a closed list of words is read as any text, and a field the strict
// description knows only as null may be anything. Where payctl reads a field otherwise than that
// (a status word, a field only shown), the strict description says so with readAs.

/** Type-only: how the CLI reads a field that readAs gave a reading of its own. */
declare const readAsMark: unique symbol;
type ReadAs<S, T> = S & { readonly [readAsMark]: T };

const readings = new WeakMap<object, z.ZodMiniType>();

/**
 * `strict`, which payctl reads as `tolerant` (a status as any status word, an object only shown).
 * A copy of `strict` is marked, never the schema given: that may be a building block used elsewhere.
 */
export function readAs<S extends z.ZodMiniType, T extends z.ZodMiniType>(strict: S, tolerant: T): ReadAs<S, T> {
  const own = strict.clone() as S;
  readings.set(own, tolerant);
  return own as ReadAs<S, T>;
}

/** A value of a closed list of words the provider sends, which payctl reads as `word` (it branches on some). */
export function oneOfWords<const W extends readonly [string, ...string[]], T extends z.ZodMiniType>(words: W, word: T) {
  return readAs(z.enum(words), word);
}

/** The tolerant reading of one field's schema (before it is made optional). */
export type Tolerant<S> = S extends { readonly [readAsMark]: infer T }
  ? T
  : S extends z.ZodMiniOptional<infer I> | z.ZodMiniNullable<infer I>
    ? Tolerant<I>
    : S extends z.ZodMiniObject<infer Shape>
      ? z.ZodMiniObject<TolerantShape<Shape, never>, z.core.$loose>
      : S extends z.ZodMiniArray<infer I>
        ? z.ZodMiniArray<Reading<I>>
        : S extends z.ZodMiniUnion<infer O>
          ? z.ZodMiniUnion<Extract<{ -readonly [K in keyof O]: Reading<O[K]> }, readonly z.core.SomeType[]>>
          : S extends z.ZodMiniNull
            ? z.ZodMiniUnknown
            : S extends z.ZodMiniEnum | z.ZodMiniLiteral
              ? typeof anyString
              : S;

/** Tolerant<S>, known to be a schema. */
type Reading<S> = Tolerant<S> extends infer T extends z.core.$ZodType ? T : never;

/** An object's fields read tolerantly: each may be missing or null but those payctl relies on. */
export type TolerantShape<Shape, Relied extends PropertyKey> = {
  -readonly [K in keyof Shape]: K extends Relied ? Reading<Shape[K]> : z.ZodMiniOptional<z.ZodMiniNullable<Reading<Shape[K]>>>;
};

interface Def {
  type: string;
  innerType?: z.ZodMiniType;
  shape?: Record<string, z.ZodMiniType>;
  element?: z.ZodMiniType;
  options?: readonly z.ZodMiniType[];
  error?: z.core.$ZodErrorMap;
}

function readingOf(schema: z.ZodMiniType): z.ZodMiniType {
  const own = readings.get(schema);
  if (own) return own;
  const def = schema._zod.def as unknown as Def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
      return readingOf(def.innerType as z.ZodMiniType);
    case 'object':
      return looseObject(tolerantShape(def.shape ?? {}, []));
    case 'array':
      return z.array(readingOf(def.element as z.ZodMiniType), { error: 'an array' });
    case 'union':
      return z.union((def.options ?? []).map(readingOf), { error: def.error });
    case 'null':
      return z.unknown();
    case 'enum':
    case 'literal':
      return anyString;
    default:
      return schema;
  }
}

function tolerantShape(shape: Record<string, z.ZodMiniType>, relied: readonly string[]): Record<string, z.ZodMiniType> {
  return Object.fromEntries(Object.entries(shape).map(([name, field]) => [name, relied.includes(name) ? readingOf(field) : missingOrNull(readingOf(field))]));
}

/**
 * How payctl reads an answer described by `strict`: the fields named in `relied` must be there and
 * be what the description says (an id it asks for again, the status it reports, an amount it
 * reconciles); every other field may be missing or null, and fields it does not know are kept.
 */
export function tolerant<Shape extends z.core.$ZodShape, const Relied extends keyof Shape & string = never>(
  strict: z.ZodMiniObject<Shape, z.core.$ZodObjectConfig>,
  relied: readonly Relied[] = [],
): z.ZodMiniObject<TolerantShape<Shape, Relied>, z.core.$loose> {
  const def = strict._zod.def as unknown as Def;
  return looseObject(tolerantShape(def.shape ?? {}, relied)) as unknown as z.ZodMiniObject<TolerantShape<Shape, Relied>, z.core.$loose>;
}
