import type { RequestInput } from '../../api/client.js';
import type { Operation } from '../../provider/endpoints.js';
import { UsageError } from '../../errors.js';
import { validateId } from '../../validate/index.js';
import { optionalString } from './input.js';

// `--seller <id>`: one seller's records instead of the whole marketplace's, on every list that has
// them. Read from the provider's seller-scoped paths (…/sellers/{id}/transactions, …) or, where
// the provider has none, payctl's own laid out the same way; never by reading the marketplace's
// list and keeping the seller's rows. The flag itself is added by seller-flag.ts, which the
// command tree loads at start-up without the checks here.

/** The --seller id, checked, or undefined when not given. */
export function sellerFlag(options: { seller?: string }): string | undefined {
  const value = optionalString(options.seller);
  return value === undefined ? undefined : validateId(value, 'seller id', '--seller');
}

/**
 * Filters a seller-scoped path does not take: given with --seller they would be ignored by the
 * service and the list would say more than was asked, so they are refused before anything is sent.
 */
export function refuseWithSeller<O extends object>(options: O, flags: { [K in keyof O]?: string }, path: string): void {
  const given = (Object.entries(flags) as [keyof O, string][]).find(([key]) => options[key] !== undefined && options[key] !== false);
  if (given) throw new UsageError(`${given[1]} cannot be used with --seller: the provider's ${path} takes no such filter`);
}

/** The resources listed both for the marketplace (`<resource>.list`) and for one seller (`<resource>.listBySeller`). */
type SellerListed = { [O in Operation]: O extends `${infer R}.listBySeller` ? (`${R}.list` extends Operation ? R : never) : never }[Operation];

/** Where a list reads: the marketplace's `<resource>.list`, or with --seller that seller's `<resource>.listBySeller`, with the same query. */
export function listSource(resource: SellerListed, seller: string | undefined, query: RequestInput['query']): { operation: Operation; input: RequestInput } {
  return seller === undefined ? { operation: `${resource}.list`, input: { query } } : { operation: `${resource}.listBySeller`, input: { params: { id: seller }, query } };
}
