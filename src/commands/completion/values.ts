// The values a shell completes after a flag or as a command's argument, for the flags and
// arguments whose values are a fixed set that payctl checks itself (with its own messages, so they
// are not commander choices): `--status` of a list, `export --format`, `--group-by`, `export
// <resource>`, `help <topic>`. Read off the same lists the commands check against.
import { PAYMENT_TYPES, TRANSACTION_STATUSES } from '../transactions/shared.js';
import { TRANSFER_STATUSES } from '../transfers/shared.js';
import { OPERATIONS } from '../balances/shared.js';
import { RECEIVABLE_STATUSES } from '../receivables/list.js';
import { EXPORT_FORMATS } from '../export/formats.js';
import { EXPORT_RESOURCE_NAMES } from '../export/resources.js';
import { HELP_TOPICS } from '../help/index.js';
import { CSV_LOCALES } from '../../output/csv-locale.js';

const TIME = ['day', 'week', 'month'];

/** Values of a flag: by `path --flag` (a verb's own), else by `--flag` (everywhere). */
const FLAG_VALUES: Record<string, readonly string[]> = {
  '--csv-locale': CSV_LOCALES,
  'transactions list --status': TRANSACTION_STATUSES,
  'transactions list --payment-type': PAYMENT_TYPES,
  'transactions list --group-by': [...TIME, 'seller', 'payment-type', 'card-brand', 'status'],
  'transfers list --status': TRANSFER_STATUSES,
  'transfers list --group-by': [...TIME, 'seller', 'status'],
  'balances history --operation': OPERATIONS,
  'balances history --group-by': TIME,
  'future-entries list --group-by': TIME,
  'receivables list --status': RECEIVABLE_STATUSES,
  'receivables list --group-by': [...TIME, 'status'],
  'export --format': EXPORT_FORMATS,
};

/** Values of a command's first argument. */
const ARGUMENT_VALUES: Record<string, readonly string[]> = {
  export: EXPORT_RESOURCE_NAMES,
};

export function flagValues(path: string, long: string): string[] | undefined {
  const values = FLAG_VALUES[`${path} ${long}`.trim()] ?? FLAG_VALUES[long];
  return values ? [...values] : undefined;
}

export function argumentValues(path: string): string[] | undefined {
  const values = ARGUMENT_VALUES[path];
  return values ? [...values] : undefined;
}

/** What the completion scripts are given of the values above (completion/tree.ts reads the rest off the program). */
export const COMPLETION_VALUES = { flag: flagValues, argument: argumentValues, helpTopics: [...HELP_TOPICS] };
