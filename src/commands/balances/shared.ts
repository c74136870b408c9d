import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { AMOUNT_COLUMN, CREATED_COLUMN, ID_COLUMN } from '../../output/columns.js';
import type { Column } from '../../output/render-options.js';
import { decimalCents, type TotalSpec } from '../../output/totals.js';
import { validateId } from '../../validate/index.js';
import { optionalString } from '../shared/input.js';
import { sellerFlag } from '../shared/seller.js';

/** Whose account it is, when the account says: a seller's or a buyer's. */
export function ownerKind(account: Record<string, unknown>): 'seller' | 'buyer' | undefined {
  return account.type === 'seller' || account.type === 'buyer' ? account.type : undefined;
}

export const ACCOUNT_COLUMNS: Column[] = [
  ID_COLUMN,
  { key: 'type', header: 'TYPE' },
  { key: 'owner', header: 'OWNER', kind: 'id', optional: true, names: ownerKind },
  { key: 'current_balance', header: 'BALANCE', kind: 'money' },
  CREATED_COLUMN,
];

export const HISTORY_COLUMNS: Column[] = [
  { key: 'created_at', header: 'DATE', kind: 'date' },
  // Categorical like a status (sale, refund, chargeback, transfer): never cut or dropped.
  { key: 'operation', header: 'OPERATION', kind: 'status' },
  AMOUNT_COLUMN,
  { key: 'balance', header: 'BALANCE', kind: 'money' },
  { key: 'transaction', header: 'TRANSACTION', kind: 'id', optional: true },
  { key: 'transfer', header: 'TRANSFER', kind: 'id', optional: true },
];

export const HISTORY_CSV_COLUMNS = ['id', 'account', 'operation', 'type', 'amount', 'balance', 'currency', 'description', 'transaction', 'transfer', 'created_at'];

export const OPERATIONS = ['sale', 'refund', 'chargeback', 'transfer'] as const;

/** Money in, money out and what it came to. */
export const HISTORY_TOTALS: TotalSpec[] = [
  { label: 'credits', cents: (e) => Math.max(0, decimalCents(e.amount) ?? 0) },
  { label: 'debits', cents: (e) => Math.min(0, decimalCents(e.amount) ?? 0) },
  { label: 'net', cents: (e) => decimalCents(e.amount) },
];

/** --account or --seller; with neither, the profile's seller (whose account sales and transfers move). */
export async function accountOrSeller(ctx: Factory, options: { account?: string; seller?: string }): Promise<{ account: string } | { seller: string }> {
  const account = optionalString(options.account);
  const given = sellerFlag(options);
  if (account !== undefined && given !== undefined) throw new UsageError('use either --account or --seller, not both');
  if (account !== undefined) return { account: validateId(account, 'account id', '--account') };
  if (given !== undefined) return { seller: given };
  const seller = (await ctx.config.profile()).sellerId;
  if (!seller) throw new UsageError("give --account <id> or --seller <id>, or set the profile's seller_id ('payctl config set seller_id <id>') or PAYCTL_SELLER_ID");
  return { seller };
}
