import { ValidationError } from '../../../errors.js';
import { moneyMoveFlags, type MoneyMoveFlags } from '../../shared/again.js';
import type { OptionsOf } from '../../verb.js';
import type { refund } from '../flags.js';

// What `transactions refund --file` reads from its flags, checked before the file is opened: the
// refund verb's flag rules for a batch (refund.ts), and the settings the batch runs with.

export const DEFAULT_MAX_WAIT_SECONDS = 300;

export interface BatchFlags {
  concurrency: number;
  maxWait: number;
  flags: MoneyMoveFlags;
  full: boolean;
}

export function readBatchFlags(options: OptionsOf<typeof refund>): BatchFlags {
  const concurrency = parseConcurrency(options.concurrency);
  const maxWait = parseMaxWait(options.maxWait);
  if (options.amount !== undefined || options.amountCents !== undefined) throw new ValidationError('--file', 'amounts come from the file (an amount or amount_cents column), or all that remains of every row with --full; drop --amount');
  return { concurrency, maxWait, flags: moneyMoveFlags(options), full: options.full === true };
}

// A flag given empty (`--concurrency "$N"` with nothing in it) is a mistake to name, not its default.
function parseConcurrency(value: string | undefined): number {
  const raw = value ?? '4';
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 64) throw new ValidationError('--concurrency', 'give a whole number from 1 to 64');
  return Number(raw);
}

function parseMaxWait(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_MAX_WAIT_SECONDS;
  const seconds = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || seconds > 86_400) throw new ValidationError('--max-wait', 'give seconds, from 0 to 86400 (the longest the batch waits in all on rate limits and an unavailable service)');
  return seconds;
}
