import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import { UsageError } from '../../errors.js';

// A list tool reads one bounded page of its list a call: `limit` items (20 unless asked, never
// more than 50), and a `next_cursor` when there are more. Its verb reads that page itself, through
// the hidden --window flag every list verb has (shared/list-flags.ts): the same code path, filters
// and checks as the command line's. An agent never pulls a whole account: --all is no tool's input.
//
// A cursor is opaque to the agent and read back strictly: it names its tool, the list's query
// (every argument but limit and cursor) and where the next page starts, sealed with a key of this
// server's run. A cursor of another tool or another query, altered, or of another run is refused.

export const DEFAULT_PAGE = 20;
export const MAX_PAGE = 50;

/** The list verbs' flags a tool does not take as such: its own `limit` and `cursor` stand for them. */
export const PAGED_FLAGS: ReadonlySet<string> = new Set(['limit', 'all', 'window']);

/** The key this run seals its cursors with: a cursor outlives neither the server nor its session. */
const SEAL_KEY = randomBytes(32);

/** How many items a call returns: a whole number from 1 to MAX_PAGE (`then`: what to do for more). */
const limitOf = (then: string) =>
  z
    .union([z.number(), z.string().regex(/^\d+$/, { error: 'a whole number' }).transform(Number)])
    .pipe(z.number().int({ error: 'a whole number' }).min(1, { error: 'at least 1' }).max(MAX_PAGE, { error: `at most ${MAX_PAGE} a call; ${then}` }));

const limitInput = limitOf('page on with next_cursor')
  .optional()
  .describe(`how many items this call returns (default ${DEFAULT_PAGE}, at most ${MAX_PAGE}); the result has next_cursor when there are more`);

/**
 * The `limit` of a tool whose verb lists what it holds (the ledger's moves, the requests) without
 * pages: the verb's own, bounded as a page is, so no call returns more than a page's worth.
 */
export const boundedLimit = (description: string) => limitOf('narrow it down with the other arguments').optional().describe(`${description}; at most ${MAX_PAGE} a call`);

const cursorInput = z.string().max(512).optional().describe('next_cursor of the previous page of this same list (same tool, same arguments): the page after it');

/** The inputs a list tool adds to its verb's. */
export const PAGE_INPUTS = { limit: limitInput, cursor: cursorInput };

/** The page a call asks for. */
export interface PageAsked {
  offset: number;
  limit: number;
}

/** What a cursor is sealed over: the tool and its arguments but the page's own. */
function queryDigest(tool: string, args: Record<string, unknown>): string {
  const query = Object.entries(args)
    .filter(([name, value]) => name !== 'limit' && name !== 'cursor' && value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return createHash('sha256').update(JSON.stringify([tool, query])).digest('base64url').slice(0, 22);
}

function seal(body: string): string {
  return createHmac('sha256', SEAL_KEY).update(body).digest('base64url').slice(0, 22);
}

/** The cursor of the page starting at `offset` of this tool's list for these arguments. */
export function cursorAt(tool: string, args: Record<string, unknown>, offset: number): string {
  const body = `${queryDigest(tool, args)}.${offset.toString(36)}`;
  return `${body}.${seal(body)}`;
}

/** The page a list tool's call asks for: its limit, and where its cursor says the page starts (strictly). */
export function pageAsked(tool: string, args: Record<string, unknown>): PageAsked {
  const limit = typeof args.limit === 'number' ? args.limit : DEFAULT_PAGE;
  const cursor = args.cursor;
  if (cursor === undefined) return { offset: 0, limit };
  const parts = String(cursor).split('.');
  const [digest, offsetText, mac] = parts;
  const valid = parts.length === 3 && digest && offsetText && mac && /^[0-9a-z]{1,8}$/.test(offsetText) && sameText(mac, seal(`${digest}.${offsetText}`));
  if (!valid) throw new UsageError(`${tool}: cursor: not a cursor this server gave (altered, or from an earlier session); call ${tool} without cursor to start the list again`);
  if (digest !== queryDigest(tool, args)) {
    throw new UsageError(`${tool}: cursor: it belongs to another list (another tool, or other arguments than limit and cursor); call ${tool} with the arguments of the page it came with, or without cursor to start again`);
  }
  return { offset: parseInt(offsetText, 36), limit };
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The verb's --window for a page: one item more than asked, which tells whether there are more. */
export function windowWord(page: PageAsked): string {
  return `--window=${page.offset}:${page.limit + 1}`;
}

/** A page's items as the tool returns them, with the cursor of the next page when there are more. */
export function pageResult(tool: string, args: Record<string, unknown>, page: PageAsked, items: unknown[]): { items: unknown[]; next_cursor?: string } {
  if (items.length <= page.limit) return { items };
  return { items: items.slice(0, page.limit), next_cursor: cursorAt(tool, args, page.offset + page.limit) };
}
