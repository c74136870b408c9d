// `boletos get` on a terminal: whose it is, when it falls due, and what pays it (the barcode, the
// typeable line, the link; a bolepix's PIX code), the buyer by name. A bolepix's `base64` is a PNG
// of its PIX QR code, over a thousand characters: a table names it (boletoRow) instead of filling
// the screen; JSON carries it whole. And what `boletos cancel` prints: the service's answer, with the
// sale's amount and buyer. See src/output/object-view.ts.
import type { ObjectView } from '../../output/object-view.js';
import { AMOUNT, CREATED, CUSTOMER, DESCRIPTION, resourceView, TRANSACTION } from '../../output/resource-view.js';

type Item = Record<string, unknown>;

/** For a table (the view, or --fields): the QR image named instead of shown. */
export function boletoRow(boleto: Item): Item {
  const image = boleto.base64;
  if (typeof image !== 'string' || image === '') return boleto;
  return { ...boleto, base64: `PNG of the QR code of emv, ${image.length} characters of base64 (-o json shows it)` };
}

export const BOLETO_VIEW = resourceView(
  'Boleto',
  'id',
  [
    CUSTOMER,
    { label: 'Due', at: 'expiration_date', kind: 'date' },
    { label: 'Pay by', at: 'payment_limit_date', kind: 'date' },
    { label: 'Paid', at: 'paid_at', kind: 'date' },
    TRANSACTION,
    DESCRIPTION,
    CREATED,
  ],
  [
    {
      title: 'How to pay',
      fields: [
        { label: 'Barcode', at: 'barcode' },
        { label: 'Line', at: 'digitable_line' },
        { label: 'Link', at: 'url' },
        { label: 'PIX code', at: 'emv' },
        { label: 'QR code', at: 'base64' },
      ],
    },
    {
      title: 'Issued by',
      fields: [
        { label: 'Recipient', at: 'recipient' },
        { label: 'Bank', at: 'bank_code' },
        { label: 'Document', at: 'document_number' },
      ],
    },
  ],
);

/**
 * The answer to `boletos cancel` ({status, message, transaction_id}) with, for the table only, the
 * sale's amount, buyer and due date as read before asking: "Boleto of transaction <id>  Requested".
 */
export const BOLETO_CANCELLATION_VIEW: ObjectView = {
  noun: 'Boleto of transaction',
  id: 'transaction_id',
  status: 'status',
  summary: [AMOUNT, CUSTOMER, { label: 'Due', at: 'due_date', kind: 'date' }, { label: 'Answer', at: 'message' }],
  sections: [],
};
