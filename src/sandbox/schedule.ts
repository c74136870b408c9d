import { dayAt } from '../validate/date.js';
import { addDays, addMonths, calendarDate } from './time.js';
import type { Plan } from './types.js';

// A plan's billing calendar. Every due date is computed from the schedule's first date (its
// anchor) and a step count, never from the previous due date: Jan 31 monthly goes Feb 28, Mar 31,
// Apr 30, as banks schedule installments, instead of sticking to the 28th after February.

type Cadence = Pick<Plan, 'frequency' | 'interval'>;

/** Each frequency as a count of days or of calendar months. */
const UNITS: Record<Plan['frequency'], { add: (date: Date, n: number) => Date; size: number }> = {
  daily: { add: addDays, size: 1 },
  weekly: { add: addDays, size: 7 },
  monthly: { add: addMonths, size: 1 },
  annually: { add: addMonths, size: 12 },
};

/** The due date `step` intervals after `anchor`. */
export function dueDateAt(anchor: string, cadence: Cadence, step: number): string {
  const { add, size } = UNITS[cadence.frequency];
  // Due dates are only ever stored after dayAt accepted them.
  return calendarDate(add(dayAt(anchor) as Date, size * step * cadence.interval));
}

/** The first step from `fromStep` on whose due date is not before `today`. */
export function firstStepOnOrAfter(anchor: string, cadence: Cadence, fromStep: number, today: string): number {
  let step = fromStep;
  // Calendar dates in YYYY-MM-DD compare correctly as text.
  while (dueDateAt(anchor, cadence, step) < today) step += 1;
  return step;
}
