import { ValidationError } from '../../errors.js';
import { parseAmount } from '../../validate/index.js';

// A part of an amount as a flag gives it: a boleto's late fee or discount, a seller's split.

/** A percentage or a fixed amount in cents. */
export type Charge = { mode: 'percentage'; value: string } | { mode: 'fixed'; cents: number };

/** "2%" is a percentage; "5.00" / "5,00" is a fixed amount in major units. */
export function parseCharge(value: string, flag: string): Charge {
  const text = value.trim();
  if (text.endsWith('%')) {
    const number = text.slice(0, -1).replace(',', '.');
    if (!/^\d{1,3}(\.\d{1,2})?$/.test(number) || Number(number) <= 0 || Number(number) > 100) {
      throw new ValidationError(flag, `"${value}" is not a percentage between 0 and 100, like 2% or 1.5%`);
    }
    return { mode: 'percentage', value: number };
  }
  return { mode: 'fixed', cents: parseAmount(text, flag) };
}
