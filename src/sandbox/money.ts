// Requests carry integer cents, responses carry decimal strings in reais ("10.50"). Integer
// arithmetic only, so no amount ever picks up a floating-point error.

export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Accepts an integer or an all-digit string ("1000"): the seed's own sample sends the amount as
 * text, the provider's schema as a number. Returns undefined for anything else (decimals, signs).
 */
export function parseCents(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return undefined;
}

const WRITTEN = /^-?\d{1,13}\.\d\d$/;

/** Inverse of centsToDecimal, for amounts the sandbox itself wrote. */
export function decimalToCents(decimal: string): number {
  // As centsToDecimal writes it, read without splitting: a generated sale reads a dozen amounts.
  if (WRITTEN.test(decimal)) return Number(decimal.slice(0, -3) + decimal.slice(-2));
  const [whole = '0', fraction = '0'] = decimal.replace('-', '').split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
  return decimal.startsWith('-') ? -cents : cents;
}
