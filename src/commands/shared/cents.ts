import { centsToDecimalString } from '../../validate/index.js';

/**
 * Recurrence resources carry amounts as integer cents (a JSON number), unlike transactions'
 * decimal strings. For tables only, show them as money; JSON keeps the API's numbers.
 */
export function centsForTable(...keys: string[]) {
  return (item: Record<string, unknown>): Record<string, unknown> => {
    const shown: Record<string, unknown> = { ...item };
    for (const key of keys) {
      const value = item[key];
      if (typeof value === 'number' && Number.isInteger(value)) shown[key] = centsToDecimalString(value);
    }
    return shown;
  };
}
