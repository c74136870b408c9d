// The provider's strict description of a sale, with the payment method its payment_type carries:
// a test reads a boleto's barcode or a card's digits typed, and fails when the sale carries another.
import * as z from 'zod/mini';
import { cardPaymentMethodStrict } from '../../src/provider/schemas/cards.js';
import { bolepixPaymentMethodStrict, boletoPaymentMethodStrict, pixPaymentMethodStrict, transactionStrict } from '../../src/provider/schemas/transaction.js';

export const cardSale = z.extend(transactionStrict, { payment_method: cardPaymentMethodStrict });
export const boletoSale = z.extend(transactionStrict, { payment_method: boletoPaymentMethodStrict });
export const bolepixSale = z.extend(transactionStrict, { payment_method: bolepixPaymentMethodStrict });
export const pixSale = z.extend(transactionStrict, { payment_method: pixPaymentMethodStrict });
