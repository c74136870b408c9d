// Input checks run before any request: pure functions that return the normalised value or throw a
// ValidationError naming the flag. Card and CPF/CNPJ checks are imported from card.js and
// taxpayer.js directly: they bring @brazilian-utils/brazilian-utils, which the many commands that
// only need an id or an amount checked should not load.
export { parseAmount, parseAmountCents, centsToDecimalString, decimalStringToCents } from './money.js';
export { parseDate, parseDateTime, dayStartSeconds, nextDay, writtenDay, writtenDayWithin } from './date.js';
export {
  validateCurrency,
  validateEmail,
  validateInstallments,
  validateId,
  parseMetadata,
  validatePhone,
  validateBrazilianPhone,
} from './misc.js';
