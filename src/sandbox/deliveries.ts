import type { JsonObject } from './http.js';
import { isoTimestamp } from './time.js';
import type { Delivery, SandboxState } from './types.js';
import { Checker } from './validate.js';

// Sending boletos and receipts. Nothing leaves the machine: each "sent" message is recorded in the
// state, where tests and curious users can see what would have gone where.

/** `to`, an e-mail address as the request schema has it. */
export function parseEmailTarget(body: JsonObject): string {
  return (body.to as string).trim();
}

/** The provider's SMS form: "+55", a two-digit area code, then an 8- or 9-digit number. */
const MOBILE_PATTERN = /^\+55 ?\d{2} ?\d{8,9}$/;

export function parsePhoneTarget(body: JsonObject): string {
  const check = new Checker();
  const to = check.requiredString(body.to, 'to', 30)?.trim();
  if (to !== undefined && !MOBILE_PATTERN.test(to)) check.add('to', 'must be a Brazilian mobile number: +55, a 2-digit area code and 8 or 9 digits (+55 21999099999)');
  check.throwIfAny();
  return to as string;
}

export function recordDelivery(state: SandboxState, delivery: Omit<Delivery, 'at'>, now: Date): void {
  state.deliveries.append({ ...delivery, at: isoTimestamp(now) });
}
