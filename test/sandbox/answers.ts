// Answers read more narrowly than the provider's schemas alone say, where a test depends on it: a
// sale with the payment method its payment_type carries (a test reads a boleto's barcode or a card's
// digits typed, and fails when the sale carries another), a token with the card it made.
import * as z from 'zod/mini';
import { cardPaymentMethodStrict, cardTokenSchema } from '../../src/provider/schemas/cards.js';
import { bolepixPaymentMethodStrict, boletoPaymentMethodStrict, pixPaymentMethodStrict, transactionStrict } from '../../src/provider/schemas/transaction.js';

export const cardSale = z.extend(transactionStrict, { payment_method: cardPaymentMethodStrict });
export const boletoSale = z.extend(transactionStrict, { payment_method: boletoPaymentMethodStrict });
export const bolepixSale = z.extend(transactionStrict, { payment_method: bolepixPaymentMethodStrict });
export const pixSale = z.extend(transactionStrict, { payment_method: pixPaymentMethodStrict });

/** A card token as the sandbox answers it: always with the id of the card it made. */
export const tokenWithCard = z.extend(cardTokenSchema, { card: z.looseObject({ id: z.string() }) });
