// The flags of `payctl export`, checked before anything is read or sent (exit 2 naming the flag).
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { exportVerb } from './flags.js';
import { resolve } from 'node:path';
import { UsageError, ValidationError } from '../../errors.js';
import { dayStartSeconds, nextDay, parseDate, parseDateTime } from '../../validate/index.js';
import { didYouMean } from '../../validate/closest.js';
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
  /** --until as epoch milliseconds, exclusive: the end of that day, or just after that instant. */
  until: number | undefined;
  /** For a resource dated by a calendar date (resources.ts `dated`): --since and --until as those days, instead of `since` and `until`. */
  days: { from?: string; to?: string } | undefined;
  /** Days; undefined when not given (the state file's, else the default, applies). */
  lookbackDays: number | undefined;
}

export function parseExportOptions(args: ArgsOf<typeof exportVerb>, options: OptionsOf<typeof exportVerb>): ExportOptions {
  const name = args[0] ?? '';
  const resource = EXPORT_RESOURCES.find((r) => r.name === name);
  if (!resource) {
    throw new UsageError(`"${name}" is not something payctl exports${didYouMean(name, EXPORT_RESOURCE_NAMES)}; use one of ${EXPORT_RESOURCE_NAMES.join(', ')}`);
  }
  const rawFormat = optionalString(options.format) ?? 'ndjson';
  if (!(EXPORT_FORMATS as readonly string[]).includes(rawFormat)) {
    throw new ValidationError('--format', `"${rawFormat}" is not an export format${didYouMean(rawFormat, EXPORT_FORMATS)}; use ${EXPORT_FORMATS.join(', ')}`);
  }
  const rawOut = optionalString(options.out) ?? '-';
  const rawState = optionalString(options.state);
  const [rawSince, rawUntil] = [optionalString(options.since), optionalString(options.until)];
  const [fromDay, toDay] = resource.dated ? [dayOf(rawSince, '--since', resource), dayOf(rawUntil, '--until', resource)] : [];
  if (fromDay !== undefined && toDay !== undefined && toDay < fromDay) throw new UsageError(`--until ${toDay} is before --since ${fromDay}`);
  const days = resource.dated ? { ...(fromDay !== undefined ? { from: fromDay } : {}), ...(toDay !== undefined ? { to: toDay } : {}) } : undefined;
  const since = days ? undefined : instantOf(rawSince, '--since', 'start');
  const until = days ? undefined : instantOf(rawUntil, '--until', 'end');
  if (since !== undefined && until !== undefined && until <= since) throw new UsageError(`--until ${rawUntil} is not after --since ${rawSince}`);
  const lookbackDays = lookback(optionalString(options.lookback));
  const windowFlag = rawSince !== undefined ? '--since' : rawUntil !== undefined ? '--until' : lookbackDays !== undefined ? '--lookback' : undefined;
  if (resource.window === 'snapshot' && windowFlag !== undefined) {
    throw new UsageError(`${windowFlag}: ${resource.name} are read whole on every run (their list is not by creation time); it takes no --since, --until or --lookback`);
  }
  return {
    resource,
    format: rawFormat as ExportFormat,
    out: rawOut === '-' ? undefined : resolve(rawOut),
    outArg: rawOut,
    overwrite: options.overwrite === true,
    state: rawState === undefined ? undefined : resolve(rawState),
    since,
    until,
    days,
    lookbackDays,
  };
}

/** --since or --until of a resource dated by a calendar date: a day as written, never an instant. */
function dayOf(value: string | undefined, flag: string, resource: ExportResource): string | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value.trim())) {
    const field = resource.dated?.field ?? 'date';
    throw new ValidationError(flag, `${JSON.stringify(value)} is not a day; ${resource.name} are dated by their ${field}, a calendar date: give YYYY-MM-DD`);
  }
  return parseDate(value, flag);
}

/**
 * --since or --until as epoch milliseconds: a YYYY-MM-DD day is 00:00–24:00 in the zone payctl
 * shows times in (src/time/zone.ts), as the list filters read days; `start` is its first instant,
 * `end` the first instant after it. An ISO 8601 date-time (without an offset: in that zone) is
 * itself, or for `end` the millisecond after it.
 */
function instantOf(value: string | undefined, flag: string, edge: 'start' | 'end'): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value.trim())) {
    const day = parseDate(value, flag);
    return dayStartSeconds(edge === 'start' ? day : nextDay(day), 'local') * 1000;
  }
  if (!/^\d{4}-\d{2}-\d{2}[T ]/.test(value.trim())) {
    throw new ValidationError(flag, `${JSON.stringify(value)} is not a date; use YYYY-MM-DD or an ISO 8601 date-time like 2026-03-31T18:00:00-03:00`);
  }
  const at = Date.parse(parseDateTime(value, flag));
  return edge === 'start' ? at : at + 1;
}

function lookback(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d{1,3})d?$/.exec(value.trim());
  if (!match || Number(match[1]) > 365) throw new ValidationError('--lookback', `${JSON.stringify(value)} is not a number of days; give 0 to 365, like 3 or 7d`);
  return Number(match[1]);
}
