import { boletoView, cancelBoleto, emailBoleto, findBoleto } from './boletos.js';
import { deliveryTarget } from './deliveries.js';
import { renderReceiptHtml } from './receipt-html.js';
import { findReceipt, receiptView, sendReceipt } from './receipts.js';
import { findReceivable, listTransactionReceivables } from './receivables.js';
import { changing, flagged, idOf, planned, reading, requireMarketplace } from './handlers.js';
import type { RouteTable } from './route.js';
import { readState } from './store.js';
import { findTransaction } from './transactions.js';

// Routes of what a sale produces: its boleto, its receipt and its receivables. Two of the
// provider's paths name the marketplace inside the path instead of the prefix; they answer only
// without the prefix, and only for the sandbox's own marketplace.

const requestCancellation = changing((state, c) => cancelBoleto(state, idOf(c), c.now()), 202);

/** Sends a receipt by `method` to where the body says. */
const sendBy = (method: 'email' | 'sms') =>
  planned(
    (c) => deliveryTarget(c.body),
    (to, state, c) => sendReceipt(state, idOf(c), method, to, c.now()),
  );

export const documentRoutes: RouteTable = {
  'GET boletos/:id': reading((state, c) => boletoView(findBoleto(state, idOf(c)), state.marketplace_id)),
  // The provider sends a boleto to its buyer's address on file and takes no body at all.
  'POST boletos/:id/emails': flagged({ noBody: true }, changing((state, c) => emailBoleto(state, idOf(c), c.now()))),
  'POST boletos/cancellation/marketplaces/:marketplace/transactions/:id': flagged({ outsidePrefix: true }, async (c) => {
    requireMarketplace(c.params.marketplace ?? '');
    return requestCancellation(c);
  }),
  // For profiles without a marketplace id, which call every path unprefixed.
  'POST boletos/cancellation/transactions/:id': flagged({ outsidePrefix: true }, requestCancellation),
  'GET receipts/:id': reading((state, c) => receiptView(state, findReceipt(state, idOf(c)))),
  'POST receipts/:id/emails': sendBy('email'),
  'POST receipts/:id/texts': sendBy('sms'),
  // After receipts/{id}/emails and /texts, whose literal last segment would otherwise be taken for a receipt id.
  'GET receipts/:marketplace/:id': flagged({ outsidePrefix: true }, async (c) => {
    requireMarketplace(c.params.marketplace ?? '');
    const state = await readState(c.stateDir, c.now);
    const stored = findReceipt(state, idOf(c));
    const method = stored.txn.payment_method;
    const html = renderReceiptHtml(receiptView(state, stored), method.resource === 'card' ? method.last4_digits : null);
    return { status: 200, body: html, contentType: 'text/html; charset=utf-8' };
  }),
  'GET receivables/:id': reading((state, c) => findReceivable(state, idOf(c))),
  'GET transactions/:id/receivables': reading((state, c) => listTransactionReceivables(state, findTransaction(state, idOf(c)), c.query, c.path)),
};
