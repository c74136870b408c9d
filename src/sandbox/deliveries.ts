import type { RequestBody } from '../provider/schemas/requests.js';
import { isoTimestamp } from './time.js';
import type { Delivery, SandboxState } from './types.js';

// Sending boletos and receipts. Nothing leaves the machine: each "sent" message is recorded in the
// state, where tests and curious users can see what would have gone where.

/** `to`, an e-mail address or a Brazilian mobile number as the request schema has it. */
export function deliveryTarget(body: RequestBody<'receipts.email' | 'receipts.sms'>): string {
  return body.to.trim();
}

export function recordDelivery(state: SandboxState, delivery: Omit<Delivery, 'at'>, now: Date): void {
  state.deliveries.append({ ...delivery, at: isoTimestamp(now) });
}
