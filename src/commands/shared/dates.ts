import { ValidationError } from '../../errors.js';

/** Today's calendar date where the user is (due dates are read as local days). */
export function localToday(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** A due date cannot fall before today. */
export function notInThePast(date: string, flag: string): string {
  if (date < localToday()) throw new ValidationError(flag, `${date} is in the past`);
  return date;
}
