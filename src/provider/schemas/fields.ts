import type * as z from 'zod/mini';
import { shown } from './shared.js';

// The dotted paths a resource has, read off its schema: what --fields may name, and what
// `--fields help` lists. The same paths the output code selects with (src/output/fields.ts): a
// path through an array applies to every item (`history.amount`) or, with a number, to one
// (`history.0.amount`); free-form objects (metadata, fields the schema leaves unknown) take any key.

export type FieldTree =
  /** A string, number or boolean: nothing below it. */
  | { kind: 'value' }
  /** Free-form: any key below it, at any depth. */
  | { kind: 'any' }
  | { kind: 'object'; fields: Map<string, FieldTree> }
  | { kind: 'array'; item: FieldTree };

const VALUE: FieldTree = { kind: 'value' };
const ANY: FieldTree = { kind: 'any' };

interface Def {
  type: string;
  innerType?: z.ZodMiniType;
  in?: z.ZodMiniType;
  shape?: Record<string, z.ZodMiniType>;
  element?: z.ZodMiniType;
  options?: readonly z.ZodMiniType[];
}

/** The field tree of a schema: the shape of every object, array and union inside it. */
export function fieldTree(schema: z.ZodMiniType): FieldTree {
  // Unchecked, so typed `unknown`, but a value all the same.
  if (schema === shown) return VALUE;
  const def = schema._zod.def as unknown as Def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'catch':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
      return fieldTree(def.innerType as z.ZodMiniType);
    case 'pipe':
      return fieldTree(def.in as z.ZodMiniType);
    case 'object': {
      const names = Object.keys(def.shape ?? {});
      // An object with no fields of its own is one payctl shows but does not read into: any key.
      if (names.length === 0) return ANY;
      return { kind: 'object', fields: new Map(names.map((name) => [name, fieldTree((def.shape as Record<string, z.ZodMiniType>)[name] as z.ZodMiniType)])) };
    }
    case 'array':
      return { kind: 'array', item: fieldTree(def.element as z.ZodMiniType) };
    case 'union':
      return (def.options ?? []).map(fieldTree).reduce(mergeTrees, VALUE);
    case 'record':
    case 'unknown':
    case 'any':
      return ANY;
    default:
      return VALUE;
  }
}

/** One tree that allows what either allows (the options of a union: card, boleto or PIX). */
export function mergeTrees(a: FieldTree, b: FieldTree): FieldTree {
  if (a.kind === 'value') return b;
  if (b.kind === 'value') return a;
  if (a.kind === 'object' && b.kind === 'object') {
    const fields = new Map(a.fields);
    for (const [name, tree] of b.fields) fields.set(name, fields.has(name) ? mergeTrees(fields.get(name) as FieldTree, tree) : tree);
    return { kind: 'object', fields };
  }
  if (a.kind === 'array' && b.kind === 'array') return { kind: 'array', item: mergeTrees(a.item, b.item) };
  return ANY;
}

export interface UnknownField {
  path: string;
  /** The known path above the part that is not known ('' at the top). */
  parent: string;
  /** What the parent has, when it has named fields. */
  siblings: string[];
}

/** Undefined when the tree has the path; else where it stops being known. */
export function findUnknown(tree: FieldTree, path: string): UnknownField | undefined {
  const parts = path.split('.');
  const known: string[] = [];
  let node = tree;
  for (let i = 0; i < parts.length; ) {
    const part = parts[i] as string;
    if (node.kind === 'any') return undefined;
    if (node.kind === 'array') {
      // A number picks one item; any other name applies to every item.
      if (/^\d+$/.test(part)) {
        known.push(part);
        i++;
      }
      node = node.item;
      continue;
    }
    const child = node.kind === 'object' ? node.fields.get(part) : undefined;
    if (!child) return { path, parent: known.join('.'), siblings: node.kind === 'object' ? [...node.fields.keys()] : [] };
    known.push(part);
    node = child;
    i++;
  }
  return undefined;
}

/** The top-level field names. */
export function topFields(tree: FieldTree): string[] {
  return tree.kind === 'object' ? [...tree.fields.keys()] : [];
}

/** Every dotted path, parents before their children; `<key>` stands for any key of a free-form object. */
export function listPaths(tree: FieldTree, prefix = ''): string[] {
  const below = (name: string) => (prefix === '' ? name : `${prefix}.${name}`);
  switch (tree.kind) {
    case 'value':
      return [];
    case 'any':
      return prefix === '' ? [] : [below('<key>')];
    case 'array':
      return listPaths(tree.item, prefix);
    case 'object':
      return [...tree.fields].flatMap(([name, child]) => [below(name), ...listPaths(child, below(name))]);
  }
}
