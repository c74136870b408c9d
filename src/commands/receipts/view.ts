// `receipts get` on a terminal: what was paid, how (the card as far as a receipt shows it), to
// which seller and by which buyer, by name, and the numbers a buyer quotes back (receipt,
// authorization, NSU). See src/output/object-view.ts.
import { AMOUNT, CREATED, DESCRIPTION, resourceView, TRANSACTION } from '../../output/resource-view.js';
import { cardName } from '../../output/record-names.js';

type Item = Record<string, unknown>;

export const RECEIPT_VIEW = resourceView(
  'Receipt',
  'id',
  [
    AMOUNT,
    { label: 'Type', at: 'payment_type' },
    { label: 'Card', at: (receipt) => cardName(receipt.card as Item | null | undefined) },
    { label: 'Installments', at: 'installment_plan.number_installments' },
    { label: 'Seller', at: 'seller', kind: 'id', names: 'seller' },
    { label: 'Customer', at: 'buyer', kind: 'id', names: 'buyer' },
    { label: 'Receipt no.', at: 'receipt_number' },
    { label: 'Authorization', at: 'auth_number' },
    { label: 'NSU', at: 'auth_nsu' },
    TRANSACTION,
    DESCRIPTION,
    CREATED,
  ],
  [],
);
