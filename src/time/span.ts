// How long is left, for a countdown on a terminal.

const pad = (n: number) => String(n).padStart(2, '0');

/** A span for a countdown: `1:23`, `0:05`, `12:00:00`. */
export function span(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}
