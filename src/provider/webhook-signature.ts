import { createHmac, timingSafeEqual } from 'node:crypto';

// What X-Payctl-Signature carries: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`.
// The timestamp is inside what is signed, so a captured delivery cannot be given a new time, and a
// receiver refuses one whose time is too far from its own clock: an old delivery, posted again
// later, is refused even though its signature is genuine. The sandbox signs with this; `webhooks
// listen` verifies with it; an app does the same (see docs/webhooks.md).

/** How far a delivery's timestamp may be from the receiver's clock, either way, by default. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

function hmacHex(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** The header value for this body, signed at `timestamp` (unix seconds: wall time, not the sandbox clock). */
export function signDelivery(secret: string, body: string | Buffer, timestamp: number): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;
}

export type SignatureCheck =
  | { ok: true; timestamp: number }
  | { ok: false; why: 'missing' | 'malformed'; status: 400 }
  | { ok: false; why: 'mismatch' | 'stale'; status: 401 };

/** `t` once, and one or more `v1` (several while a secret is rotated); other keys are ignored for later schemes. */
function parseHeader(header: string): { timestamp: number; signatures: string[] } | undefined {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) return undefined;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) return undefined;
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!/^[0-9a-f]{64}$/.test(value)) return undefined;
      signatures.push(value);
    }
  }
  return timestamp === undefined || signatures.length === 0 ? undefined : { timestamp, signatures };
}

/**
 * Whether `header` signs this exact body under `secret`, at a time within `toleranceSeconds` of
 * `nowSeconds`. The signature is compared in constant time; the time is checked after it, so a
 * forger learns nothing from which of the two failed.
 */
export function checkDeliverySignature(secret: string, body: string | Buffer, header: string | undefined, nowSeconds: number, toleranceSeconds = DEFAULT_TOLERANCE_SECONDS): SignatureCheck {
  if (header === undefined || header.trim() === '') return { ok: false, why: 'missing', status: 400 };
  const parsed = parseHeader(header);
  if (!parsed) return { ok: false, why: 'malformed', status: 400 };
  const expected = Buffer.from(hmacHex(secret, parsed.timestamp, body), 'hex');
  // Every candidate is compared (no early exit), so the time taken does not say which matched.
  let matched = false;
  for (const given of parsed.signatures) matched = timingSafeEqual(Buffer.from(given, 'hex'), expected) || matched;
  if (!matched) return { ok: false, why: 'mismatch', status: 401 };
  if (Math.abs(nowSeconds - parsed.timestamp) > toleranceSeconds) return { ok: false, why: 'stale', status: 401 };
  return { ok: true, timestamp: parsed.timestamp };
}
