import * as z from 'zod/mini';
import { count, looseObject } from './shared.js';

/**
 * One page of any list. The items themselves are not checked here: they are handed over as they
 * came, and a page of 100 items is parsed once, not walked again.
 */
export const listPageSchema = looseObject({
  items: z.array(z.unknown(), { error: 'an array' }),
  has_more: z.optional(z.boolean({ error: 'true or false' })),
  total: z.optional(count),
  query_count: z.optional(count),
});

export interface ListPage {
  items: unknown[];
  has_more?: boolean | undefined;
  total?: number | string | undefined;
  query_count?: number | string | undefined;
}
