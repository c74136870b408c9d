import { anyString, integerCents, looseObject, nonEmptyString } from './shared.js';

/** An invoice of a subscription or a one-off charge. Unlike a transaction's, its amount is integer cents. */
export const invoiceSchema = looseObject({
  id: nonEmptyString,
  status: anyString,
  amount: integerCents,
});
