import type * as z from 'zod/mini';
import { bool, fixed, integer, json, text, type Field } from './fields.js';

// A record's fields (fields.ts), in their order, read off the provider's strict schema of it
// (provider/schemas/): a field added to the schema is stored in its place without being named
// here. Only how a field is kept more compactly than its type says (an id, money as cents, an
// instant as milliseconds, a value every record has alike) is written by hand, as a hint.

/** How a field is kept, given its key: one of fields.ts's makers (`id`, `word(…)`), or a function of the key. */
export type Hint = (key: string) => Field;

interface Def {
  type: string;
  innerType?: z.ZodMiniType;
  values?: readonly unknown[];
  shape?: Record<string, z.ZodMiniType>;
  format?: string;
}

/** How a field of `schema` is kept when no hint says otherwise: as its type allows. */
function keptAsTyped(key: string, schema: z.ZodMiniType): Field {
  const def = schema._zod.def as unknown as Def;
  switch (def.type) {
    case 'literal':
      return fixed(key, def.values?.[0] as string);
    case 'null':
      return fixed(key, null);
    case 'boolean':
      return bool(key);
    case 'string':
    case 'enum':
      return text(key);
    case 'number':
      return def.format === 'safeint' ? integer(key) : json(key);
    case 'nullable': {
      // A text or null is a text column; any other value or null is JSON.
      const inner = (def.innerType as z.ZodMiniType)._zod.def.type;
      return inner === 'string' || inner === 'enum' ? text(key) : json(key);
    }
    default:
      return json(key);
  }
}

/** The fields of a record of `schema`'s shape, in its order, each as `hints` says or as keptAsTyped. */
export function fieldsOf<Shape extends z.core.$ZodShape>(
  schema: z.ZodMiniObject<Shape, z.core.$ZodObjectConfig>,
  hints: { [K in keyof Shape & string]?: Hint },
): Field[] {
  const shape = (schema._zod.def as unknown as Def).shape ?? {};
  return Object.entries(shape).map(([key, field]) => {
    const hint = (hints as Record<string, Hint | undefined>)[key];
    const made = hint ? hint(key) : keptAsTyped(key, field);
    if (made.key !== key) throw new Error(`sandbox fields: the hint for ${key} keeps ${made.key}`);
    return made;
  });
}
