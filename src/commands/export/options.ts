// The flags of `payctl export`, checked before anything is read or sent (exit 2 naming the flag).
import { resolve } from 'node:path';
import { UsageError, ValidationError } from '../../errors.js';
import { parseDate, parseDateTime } from '../../validate/index.js';
import { didYouMean } from '../shared/closest.js';
import { optionalString } from '../shared/input.js';
import { EXPORT_FORMATS, type ExportFormat } from './formats.js';
import { EXPORT_RESOURCE_NAMES, EXPORT_RESOURCES, type ExportResource } from './resources.js';

export const DEFAULT_LOOKBACK_DAYS = 3;
export const DAY_MS = 86_400_000;

export interface ExportOptions {
  resource: ExportResource;
  format: ExportFormat;
  /** An absolute path, or undefined for stdout. */
  out: string | undefined;
  /** --out as given (to suggest a name beside it). */
  outArg: string;
  /** --overwrite: an incremental run may replace an existing --out FILE. */
  overwrite: boolean;
  state: string | undefined;
  /** --since as epoch milliseconds. */
  since: number | undefined;
  /** Days; undefined when not given (the state file's, else the default, applies). */
  lookbackDays: number | undefined;
}

export function parseExportOptions(args: string[], options: Record<string, unknown>): ExportOptions {
  const name = args[0] ?? '';
  const resource = EXPORT_RESOURCES.find((r) => r.name === name);
  if (!resource) {
    throw new UsageError(`"${name}" is not something payctl exports${didYouMean(name, EXPORT_RESOURCE_NAMES)}; use one of ${EXPORT_RESOURCE_NAMES.join(', ')}`);
  }
  const rawFormat = optionalString(options.format) ?? 'ndjson';
  if (!(EXPORT_FORMATS as readonly string[]).includes(rawFormat)) {
    throw new ValidationError('--format', `"${rawFormat}" is not an export format; use ${EXPORT_FORMATS.join(', ')}`);
  }
  const rawOut = optionalString(options.out) ?? '-';
  const rawState = optionalString(options.state);
  const since = sinceMs(optionalString(options.since));
  const lookbackDays = lookback(optionalString(options.lookback));
  if (resource.window === 'snapshot' && (since !== undefined || lookbackDays !== undefined)) {
    throw new UsageError(`${since !== undefined ? '--since' : '--lookback'}: ${resource.name} are read whole on every run (their list is not by creation time); it takes no --since or --lookback`);
  }
  return {
    resource,
    format: rawFormat as ExportFormat,
    out: rawOut === '-' ? undefined : resolve(rawOut),
    outArg: rawOut,
    overwrite: options.overwrite === true,
    state: rawState === undefined ? undefined : resolve(rawState),
    since,
    lookbackDays,
  };
}

/** YYYY-MM-DD (that UTC day's start, as the list filters read days) or an ISO 8601 date-time. */
function sinceMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value.trim())) return Date.parse(`${parseDate(value, '--since')}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}[T ]/.test(value.trim())) {
    throw new ValidationError('--since', `${JSON.stringify(value)} is not a date; use YYYY-MM-DD or an ISO 8601 date-time like 2026-03-31T18:00:00-03:00`);
  }
  return Date.parse(parseDateTime(value, '--since'));
}

function lookback(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d{1,3})d?$/.exec(value.trim());
  if (!match || Number(match[1]) > 365) throw new ValidationError('--lookback', `${JSON.stringify(value)} is not a number of days; give 0 to 365, like 3 or 7d`);
  return Number(match[1]);
}
