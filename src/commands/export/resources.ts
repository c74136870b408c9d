// What `payctl export` can pull, and how each resource is read and typed. Columns reuse the
// fixed CSV headers of the list verbs, so an export and `list -o csv` agree; the types are what
// Parquet stores (CSV and NDJSON keep the API's text).
import type { Target } from '../../provider/endpoints.js';
import { HISTORY_CSV_COLUMNS } from '../balances/shared.js';
import { FUTURE_ENTRY_CSV_COLUMNS } from '../future-entries/list.js';
import { TRANSACTION_CSV_COLUMNS } from '../transactions/shared.js';
import { TRANSFER_CSV_COLUMNS } from '../transfers/shared.js';
import { BY_TRANSFER_DATE, type ListDate } from '../shared/list-flags.js';

/** decimal: a money string ("10.50") kept exact as DECIMAL(18,2); timestamp: ISO date-time, UTC millis. */
export type ColumnType = 'string' | 'decimal' | 'timestamp' | 'date' | 'integer' | 'boolean' | 'json';

export interface ExportColumn {
  path: string;
  type: ColumnType;
}

export interface ExportResource {
  name: string;
  /** Plural noun for progress and messages. */
  noun: string;
  operation: Target;
  /** Needs the profile's seller in the path (future entries). */
  perSeller?: boolean;
  /**
   * created: listed oldest first by creation time, so a run can start from a cursor (`date_range`
   * on created_at), re-reading a lookback window where old rows change.
   * snapshot: a list of what is pending now, with no creation filter; read whole every run.
   */
  window: 'created' | 'snapshot';
  /**
   * A calendar date of the records' own (a transfer's date) that --since/--until bound, as
   * written, instead of their creation: the days a finance desk closes by. Changes are still
   * found by creation time (the cursor and the lookback).
   */
  dated?: ListDate;
  columns: ExportColumn[];
}

function typed(paths: readonly string[], types: Record<string, ColumnType>): ExportColumn[] {
  return paths.map((path) => ({ path, type: types[path] ?? 'string' }));
}

const STAMPS = { created_at: 'timestamp', updated_at: 'timestamp' } as const;

/**
 * A receivable's fields, in a fixed order. `receivables list` prints whatever the API gives (it
 * has no fixed CSV header), so the export names its own.
 */
const RECEIVABLE_EXPORT_COLUMNS = [
  'id',
  'status',
  'recipient',
  'transaction',
  'installment',
  'amount',
  'gross_amount',
  'anticipation_fee',
  'expected_on',
  'paid_at',
  'canceled_at',
  'transfer',
  'liable',
  'prepaid',
  'authorization_code',
  'transaction_created_at',
  'created_at',
] as const;

export const EXPORT_RESOURCES: readonly ExportResource[] = [
  {
    name: 'transactions',
    noun: 'transactions',
    operation: 'transactions.list',
    window: 'created',
    columns: typed(TRANSACTION_CSV_COLUMNS, {
      ...STAMPS,
      amount: 'decimal',
      original_amount: 'decimal',
      fees: 'decimal',
      'installment_plan.number_installments': 'integer',
      'payment_method.expiration_date': 'date',
      captured: 'boolean',
      refunded: 'boolean',
      voided: 'boolean',
      expected_on: 'timestamp',
    }),
  },
  {
    name: 'transfers',
    noun: 'transfers',
    operation: 'transfers.list',
    window: 'created',
    dated: BY_TRANSFER_DATE,
    columns: typed(TRANSFER_CSV_COLUMNS, { ...STAMPS, amount: 'decimal', fees: 'decimal', transfer_date: 'date', transactions: 'json' }),
  },
  {
    name: 'balance-history',
    noun: 'entries',
    operation: 'balances.history',
    window: 'created',
    columns: typed(HISTORY_CSV_COLUMNS, { ...STAMPS, amount: 'decimal', balance: 'decimal' }),
  },
  {
    // The seller's path lists by expected date (when the money comes), not by creation: read
    // whole each run, like future entries, and written when new or changed (paid, canceled).
    name: 'receivables',
    noun: 'receivables',
    operation: 'receivables.listBySeller',
    perSeller: true,
    window: 'snapshot',
    columns: typed(RECEIVABLE_EXPORT_COLUMNS, {
      ...STAMPS,
      amount: 'decimal',
      gross_amount: 'decimal',
      anticipation_fee: 'decimal',
      installment: 'integer',
      expected_on: 'timestamp',
      paid_at: 'timestamp',
      canceled_at: 'timestamp',
      transaction_created_at: 'timestamp',
      liable: 'boolean',
      prepaid: 'boolean',
    }),
  },
  {
    name: 'future-entries',
    noun: 'future entries',
    operation: 'futureEntries.list',
    perSeller: true,
    window: 'snapshot',
    columns: typed(FUTURE_ENTRY_CSV_COLUMNS, { ...STAMPS, gross_amount: 'decimal', fee: 'decimal', amount: 'decimal', installment: 'integer', expected_on: 'timestamp' }),
  },
];

export const EXPORT_RESOURCE_NAMES = EXPORT_RESOURCES.map((r) => r.name);
