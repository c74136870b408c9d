// Masking for anything that may be shown: --dry-run, --debug, error messages.
// Card numbers keep first 4 / last 4 digits, CVVs and credentials are replaced whole.

const PAN_KEYS = new Set(['card_number']);
const SECRET_KEYS = new Set(['security_code', 'cvv', 'cvc', 'password', 'api_key']);

export function maskPanDigits(value: string): string {
  const digits = value.replace(/\D/g, '');
  if (digits.length < 12) return '*'.repeat(digits.length);
  return `${digits.slice(0, 4)}${'*'.repeat(digits.length - 8)}${digits.slice(-4)}`;
}

/** A deep copy of a JSON value with card data masked. */
export function maskBody(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskBody);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (PAN_KEYS.has(key) && (typeof inner === 'string' || typeof inner === 'number')) {
        out[key] = maskPanDigits(String(inner));
      } else if (SECRET_KEYS.has(key) && inner !== null && inner !== undefined) {
        out[key] = '[redacted]';
      } else {
        out[key] = maskBody(inner);
      }
    }
    return out;
  }
  return value;
}

/** Catches card numbers in free text (error messages, non-JSON bodies): 12–19 digits in a row. */
export function maskText(text: string, secrets: readonly string[] = []): string {
  let masked = text.replace(/\b\d(?:[ -]?\d){11,18}\b/g, (match) => maskPanDigits(match));
  for (const secret of secrets) {
    if (!secret) continue;
    // Short secrets (a CVV) only as a whole token, so ids and amounts that merely contain the
    // same digits stay readable.
    const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const pattern = secret.length < 8 ? new RegExp(`(?<![0-9A-Za-z])${escaped}(?![0-9A-Za-z])`, 'g') : new RegExp(escaped, 'g');
    masked = masked.replace(pattern, '[redacted]');
  }
  return masked;
}

/**
 * Header names that carry a credential, whatever the service calls it: Authorization,
 * Proxy-Authorization, Cookie, Set-Cookie, X-Api-Key, X-Auth-Token, X-Payctl-Signature, …
 */
const CREDENTIAL_HEADER = /key|token|secret|auth|signature|cookie/i;
/** An Authorization scheme word, kept in front of `[redacted]` so a log still says which was sent. */
const AUTH_SCHEME = /^(basic|bearer|digest|token|negotiate) /i;

/**
 * Headers as they may be shown (--dry-run, --debug): a header whose name suggests a credential,
 * or whose value holds one of `secrets` (the API key, however it was passed), is redacted.
 */
export function maskHeaders(headers: Record<string, string>, secrets: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = maskHeader(name, value, secrets);
  return out;
}

/** One header's value as it may be shown (see maskHeaders). */
export function maskHeader(name: string, value: string, secrets: readonly string[] = []): string {
  const credential = CREDENTIAL_HEADER.test(name) || secrets.some((secret) => holdsSecret(value, secret));
  return credential ? `${AUTH_SCHEME.exec(value)?.[0] ?? ''}[redacted]` : value;
}

/** The value is the secret, or holds it (a key sent under a scheme word, or in a longer value). */
function holdsSecret(value: string, secret: string): boolean {
  if (secret === '') return false;
  // A short secret (a CVV) only as the whole value: "123" inside a request id is not the CVV.
  return secret.length < 8 ? value.trim() === secret : value.includes(secret);
}
