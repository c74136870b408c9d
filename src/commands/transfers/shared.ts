import { AMOUNT_COLUMN, ID_COLUMN, STATUS_COLUMN } from '../../output/columns.js';
import type { Column } from '../../output/render-options.js';
import { netOfFees } from '../../output/totals.js';

export const TRANSFER_STATUSES = ['pending', 'succeeded', 'failed', 'canceled'] as const;

export const TRANSFER_COLUMNS: Column[] = [
  ID_COLUMN,
  { key: 'transfer_date', header: 'DATE', kind: 'date' },
  AMOUNT_COLUMN,
  STATUS_COLUMN,
  { key: 'description', header: 'DESCRIPTION' },
];

export const TRANSFER_CSV_COLUMNS = [
  'id',
  'status',
  'type',
  'amount',
  'fees',
  'currency',
  'transfer_date',
  'description',
  'on_behalf_of',
  'account',
  'bank_account.bank_code',
  'bank_account.routing_number',
  'bank_account.account_number',
  'transactions',
  'created_at',
  'updated_at',
];

/** A transfer's amount is what reached the bank, its own fee already taken (see transfers explain). */
export const TRANSFER_TOTALS = netOfFees('amount', 'fees');
