import { invalidParameters } from './errors.js';
import type { JsonObject } from './http.js';
import { isoTimestamp } from './time.js';
import type { SandboxState } from './types.js';

// The sandbox's one clock: real time (or the time a test pins) plus an offset kept in the state
// file. The offset lives in the state, not in the process, so every payctl process serving the
// same directory sees the same sandbox time, and moving it forward is part of the same locked
// write as the billing it causes. Nothing in the sandbox reads the time any other way.

export interface SandboxClock {
  (): Date;
  /** Takes the offset of a state just loaded, so a clock moved by another process shows at once. */
  adopt(state: SandboxState): void;
}

export const DAY_SECONDS = 86_400;
export const MAX_ADVANCE_DAYS = 3660;

/**
 * A clock for one request. It starts with no offset (right for a state not yet seeded) and the
 * store hands it every state it loads; see StoreClock in store.ts.
 */
export function sandboxClock(base: () => Date): SandboxClock {
  let offsetMs = 0;
  const clock = () => new Date(base().getTime() + offsetMs);
  return Object.assign(clock, {
    adopt(state: SandboxState) {
      offsetMs = state.clock.offset_seconds * 1000;
    },
  });
}

export function clockView(state: SandboxState, now: Date) {
  return { now: isoTimestamp(now), offset_seconds: state.clock.offset_seconds };
}

/** Checked before the lock: whole days only, so due dates move by whole days too. */
export function parseAdvance(body: JsonObject): number {
  const days = body.days;
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > MAX_ADVANCE_DAYS) {
    throw invalidParameters([{ field: 'days', message: `must be a whole number of days from 1 to ${MAX_ADVANCE_DAYS}` }]);
  }
  return days;
}

/** Moves the clock forward; the clock itself only ever goes forward, so nothing is un-billed. */
export function advanceClock(state: SandboxState, clock: SandboxClock, days: number): void {
  state.clock.offset_seconds += days * DAY_SECONDS;
  clock.adopt(state);
}
