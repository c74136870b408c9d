// The one time zone payctl reads and shows times in: PAYCTL_TIMEZONE, else the profile's
// `timezone` setting (a server whose clock is UTC, working for a Brazilian account), else TZ,
// else the system's. TZ comes last of the variables because it is every program's, set for a
// whole machine; the other two are said for payctl.
// A day given on the command line (--from, --to, --since, --until) is 00:00–24:00 there, sent to
// the service as the matching UTC instants, and every table shows times there: the day a finance
// desk closes is the day on its screens. The zone is applied to the process (process.env.TZ),
// so that every Date in it, Node's and the libraries', agrees.
import { UsageError } from '../errors.js';

/** Whether `name` is a time zone this runtime knows (an IANA name such as America/Sao_Paulo, or UTC). */
export function isTimeZone(name: string): boolean {
  if (name.trim() === '' || name !== name.trim()) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** A time zone setting, checked: an unknown name is exit 2 naming where it came from. */
export function parseTimeZone(value: string, where: string): string {
  if (!isTimeZone(value)) {
    throw new UsageError(`${where}: "${value}" is not a time zone; use an IANA name such as America/Sao_Paulo, America/Manaus or UTC`);
  }
  return value;
}

/** Makes `zone` the process's: every local date and time from here on is read and shown in it. */
export function applyTimeZone(zone: string | undefined): void {
  if (zone === undefined || zone === '') return;
  if (process.env.TZ !== zone) process.env.TZ = zone;
}

/** The zone in effect, by name (the system's when TZ is not set). */
export function currentTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
}

/** The offset from UTC at `at`, as `UTC−03:00` (a true minus sign, as a table shows it). */
export function utcOffsetLabel(at = new Date()): string {
  const minutes = -at.getTimezoneOffset();
  const sign = minutes < 0 ? '−' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Whether times are shown in UTC itself (not merely a zone at UTC's offset, as London in winter). */
export function showsUtc(at = new Date()): boolean {
  return at.getTimezoneOffset() === 0 && /^(UTC|Etc\/UTC|Etc\/GMT|GMT|Etc\/Universal|Universal|Zulu|Etc\/Zulu)$/.test(currentTimeZone());
}

/**
 * The note a table of times ends with, naming their zone, UTC's too (a reader cannot tell a UTC
 * machine from one on local time): `times in America/Sao_Paulo (UTC−03:00)`, `times in UTC`.
 */
export function zoneNote(at = new Date()): string {
  return showsUtc(at) ? 'times in UTC' : `times in ${currentTimeZone()} (${utcOffsetLabel(at)})`;
}

/**
 * A moment as a message says it to a person: its date, its time to the second and its zone,
 * always (a message is read later, and by people in other zones): `2026-11-28 17:03:12 UTC−03:00`,
 * `2026-11-28 20:03:12 UTC`.
 */
export function localDateTime(ms: number): string {
  const at = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  const day = `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}`;
  return `${day} ${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())} ${zoneLabel(at)}`;
}

/** The zone of times shown at `at`, short: `UTC`, or its offset (`UTC−03:00`). */
export function zoneLabel(at = new Date()): string {
  return showsUtc(at) ? 'UTC' : utcOffsetLabel(at);
}

/** How far `zone`'s wall clock is ahead of UTC at `ms` (negative west of Greenwich). */
function zoneOffsetMs(ms: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(new Date(ms));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return wall - (ms - (((ms % 1000) + 1000) % 1000));
}

/** When the day that `ms` falls on began in `zone`: 00:00 there (a daily limit's day), as an instant. */
export function dayStartIn(ms: number, zone: string): number {
  const wall = new Date(ms + zoneOffsetMs(ms, zone));
  const midnight = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate());
  // The offset at midnight itself, which differs from now's on a day the clocks change.
  const first = midnight - zoneOffsetMs(ms, zone);
  return midnight - zoneOffsetMs(first, zone);
}

/** When the day after the one `ms` falls on begins in `zone`. */
export function nextDayStartIn(ms: number, zone: string): number {
  return dayStartIn(dayStartIn(ms, zone) + 36 * 3_600_000, zone);
}
