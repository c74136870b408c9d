// Input checks run before any request: pure functions that return the normalised value or throw a
// ValidationError naming the flag.
export { parseAmount, parseAmountCents, centsToDecimalString, decimalStringToCents } from './money.js';
export { luhnValid, cardBrand, validateCardNumber, validateExpiry, validateCvv, maskPan } from './card.js';
export type { CardBrand, Expiry } from './card.js';
export { validateTaxpayerId, isValidCpf, isValidCnpj } from './taxpayer.js';
export { parseDate, parseDateTime, dateToEpochRange } from './date.js';
export {
  validateCurrency,
  validateEmail,
  validateInstallments,
  validateId,
  parseMetadata,
  validatePhone,
  validateBrazilianPhone,
} from './misc.js';
