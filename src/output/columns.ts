import type { Column } from './render-options.js';

// Columns several lists show alike, each said once.

export const ID_COLUMN: Column = { key: 'id', header: 'ID' };
export const AMOUNT_COLUMN: Column = { key: 'amount', header: 'AMOUNT', kind: 'money' };
export const STATUS_COLUMN: Column = { key: 'status', header: 'STATUS', kind: 'status' };
export const CREATED_COLUMN: Column = { key: 'created_at', header: 'CREATED', kind: 'date' };
/** A masked CPF or CNPJ (`***.***.*89-09`): never cut, for its last digits are what a caller reads out. */
export const DOCUMENT_COLUMN: Column = { key: 'document', header: 'CPF/CNPJ', kind: 'document' };

/** What a receivable (or a future entry, one still to be paid out) comes to: gross, the fee, and net, what is paid out. */
export const GROSS_FEE_NET_COLUMNS: Column[] = [
  { key: 'gross_amount', header: 'GROSS', kind: 'money' },
  { key: 'fee', header: 'FEE', kind: 'money' },
  { key: 'amount', header: 'NET', kind: 'money' },
];
