// The CLI reads answers through tolerant schemas (provider/schemas/tolerant.ts): a field it does not
// rely on may be missing or null. That wrapping is checked in one step rather than zod's two
// (optional, then nullable), since a long list checks every field of every item: these tests hold
// it to what zod's own `z.optional(z.nullable(reading))` accepts and says, field by field.
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { findMismatch, resourceSchemas } from '../../src/provider/schemas/index.js';

/** What the walk below reads of a schema's definition: its kind, and the schemas inside it. */
type Def = { type: string; shape?: Record<string, z.ZodMiniType>; options?: readonly z.ZodMiniType[] } & Partial<Record<'innerType' | 'element', z.ZodMiniType>>;

const defOf = (schema: z.ZodMiniType) => schema._zod.def as unknown as Def;

/** Every field (path, schema) of every object inside `schema`, through arrays and unions. */
function fieldsOf(schema: z.ZodMiniType, path: string, out: Array<[string, z.ZodMiniType]>, seen = new Set<z.ZodMiniType>()): Array<[string, z.ZodMiniType]> {
  if (seen.has(schema)) return out;
  seen.add(schema);
  const def = defOf(schema);
  if (def.type === 'object') {
    for (const [name, field] of Object.entries(def.shape ?? {})) {
      out.push([`${path}.${name}`, field]);
      fieldsOf(field, `${path}.${name}`, out, seen);
    }
  } else if ((def.type === 'optional' || def.type === 'nullable') && def.innerType) fieldsOf(def.innerType, path, out, seen);
  else if (def.type === 'array' && def.element) fieldsOf(def.element, `${path}[]`, out, seen);
  else if (def.type === 'union') for (const option of def.options ?? []) fieldsOf(option, path, out, seen);
  return out;
}

/** The fields read as "missing, null or the reading", with the reading they wrap. */
const wrapped = Object.entries(resourceSchemas).flatMap(([resource, schema]) =>
  fieldsOf(schema, resource, []).flatMap(([path, field]) => {
    const inner = defOf(field).type === 'optional' ? defOf(field).innerType : undefined;
    const reading = inner && defOf(inner).type === 'nullable' ? defOf(inner).innerType : undefined;
    return reading ? [{ path, field, reading }] : [];
  }),
);

const PROBES: unknown[] = [undefined, null, 0, 12.5, '', 'succeeded', '10.00', true, {}, { id: 'x' }, [], ['a'], [{}], [null]];

describe('tolerant reading: a field payctl does not rely on may be missing or null', () => {
  it('covers the fields of the resources payctl reads', () => {
    const paths = wrapped.map((w) => w.path);
    expect(paths).toEqual(expect.arrayContaining(['transaction.description', 'transaction.history', 'transaction.payment_method', 'transaction.history[].amount']));
    expect(paths.length).toBeGreaterThan(100);
  });

  it("accepts and refuses each field exactly as zod's optional(nullable(reading)) does, with the same issues", () => {
    for (const { path, field, reading } of wrapped) {
      const plain = z.optional(z.nullable(reading));
      for (const probe of PROBES) {
        const wanted = plain.safeParse(probe);
        const got = field.safeParse(probe);
        expect({ path, probe, success: got.success, issues: got.error?.issues }).toEqual({ path, probe, success: wanted.success, issues: wanted.error?.issues });
      }
    }
  });

  it('a sale: missing or null where payctl does not rely on the field, refused naming it where it does or where the type is wrong', () => {
    const sale = { id: 'a8452c6d5126debc4d489eba7b284f7b', resource: 'transaction', status: 'succeeded', amount: '10.00', description: 'Ração 15 kg', history: [{ id: 'h1', amount: '10.00' }] };
    const schema = resourceSchemas.transaction;
    expect(findMismatch(schema, sale)).toBeUndefined();
    expect(findMismatch(schema, { ...sale, description: undefined })).toBeUndefined();
    expect(findMismatch(schema, { ...sale, description: null, history: null, payment_method: null })).toBeUndefined();
    expect(findMismatch(schema, { ...sale, description: 5 })).toBe('description: expected a string, got a number');
    expect(findMismatch(schema, { ...sale, history: [{ id: 'h1', amount: 5 }] })).toBe('history[0].amount: expected a decimal string like "10.00", got a number');
    expect(findMismatch(schema, { ...sale, amount: null })).toBe('amount: expected a decimal string like "10.00", got null');
    expect(findMismatch(schema, { ...sale, amount: undefined })).toBe('amount: expected a decimal string like "10.00"');
  });
});
