import { addDays, addMonths, calendarDate, parseCalendarDate } from './time.js';
import type { Plan } from './types.js';

// A plan's billing calendar. Every due date is computed from the schedule's first date (its
// anchor) and a step count, never from the previous due date: Jan 31 monthly goes Feb 28, Mar 31,
// Apr 30, as banks schedule installments, instead of sticking to the 28th after February.

export type Cadence = Pick<Plan, 'frequency' | 'interval'>;

function day(value: string): Date {
  // Due dates are only ever stored after parseCalendarDate accepted them.
  return parseCalendarDate(value) as Date;
}

/** The due date `step` intervals after `anchor`. */
export function dueDateAt(anchor: string, cadence: Cadence, step: number): string {
  const start = day(anchor);
  const n = step * cadence.interval;
  switch (cadence.frequency) {
    case 'daily':
      return calendarDate(addDays(start, n));
    case 'weekly':
      return calendarDate(addDays(start, 7 * n));
    case 'monthly':
      return calendarDate(addMonths(start, n));
    case 'annually':
      return calendarDate(addMonths(start, 12 * n));
  }
}

/** The first step from `fromStep` on whose due date is not before `today`. */
export function firstStepOnOrAfter(anchor: string, cadence: Cadence, fromStep: number, today: string): number {
  let step = fromStep;
  // Calendar dates in YYYY-MM-DD compare correctly as text.
  while (dueDateAt(anchor, cadence, step) < today) step += 1;
  return step;
}

/** The calendar day after `date`. */
export function nextDay(date: string): string {
  return calendarDate(addDays(day(date), 1));
}
