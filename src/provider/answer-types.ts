import type * as z from 'zod/mini';
import type { answers } from './schemas/answers.js';
import type { resourceSchemas } from './schemas/index.js';
import type { ListPage } from './schemas/list-page.js';

// The type of each operation's answer, inferred from the schema the client checks it against: what
// a verb gets from `api.call('transactions.get', …)` is what was checked, with no type written again.

type Answers = typeof answers;
type Schemas = typeof resourceSchemas;

/** A resource as its schema reads it: the fields payctl knows, typed, and any others as unknown. */
export type ResourceOf<R> = R extends keyof Schemas ? z.infer<Schemas[R]> : unknown;

/** What `operation` answers: the resource, a page of them, or a removal (`{}` for an empty 204). */
export type AnswerOf<Operation> = Operation extends keyof Answers
  ? Answers[Operation] extends { resource: infer R; shape: infer S }
    ? S extends 'list'
      ? Omit<ListPage, 'items'> & { items: ResourceOf<R>[] }
      : S extends 'removal'
        ? Partial<ResourceOf<R>>
        : ResourceOf<R>
    : unknown
  : unknown;
