// Times in ledger messages, as a person at this terminal reads them: the local clock (TZ), with
// the date only when it is not today (clockTime), or always with its date and zone when a move
// made at another time is named (when). ISO for anything a script reads.

const pad = (n: number) => String(n).padStart(2, '0');

export function clockTime(ms: number, now = Date.now()): string {
  const at = new Date(ms);
  const today = new Date(now);
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
  const sameDay = at.getFullYear() === today.getFullYear() && at.getMonth() === today.getMonth() && at.getDate() === today.getDate();
  return sameDay ? time : `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${time}`;
}

/**
 * When an earlier move was made, for a sentence: `on 2026-11-28 at 03:06:21 -03`, its date and
 * its offset from UTC always said, for a moment named long after it (a ledger shared by people in
 * other zones, a batch rerun days later).
 */
export function when(ms: number): string {
  const at = new Date(ms);
  const day = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  return `on ${day} at ${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())} ${offsetOf(at)}`;
}

/** `-03`, `+05:30`, or `UTC`. */
function offsetOf(at: Date): string {
  const minutes = -at.getTimezoneOffset();
  if (minutes === 0) return 'UTC';
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}${abs % 60 === 0 ? '' : `:${pad(abs % 60)}`}`;
}

export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
