import type { RequestBody } from '../provider/schemas/requests.js';
import { boletoView, cancelBoleto, emailBoleto, findBoleto } from './boletos.js';
import { deliveryTarget } from './deliveries.js';
import { renderReceiptHtml } from './receipt-html.js';
import { findReceipt, receiptView, sendReceipt } from './receipts.js';
import { findReceivable, listTransactionReceivables } from './receivables.js';
import { changing, flagged, idOf, planned, reading, requireMarketplace } from './handlers.js';
import type { RequestContext, RouteTable, SandboxOnlyRoute } from './route.js';
import { readState } from './store.js';
import { findTransaction } from './transactions.js';

// Routes of what a sale produces: its boleto, its receipt and its receivables. Two of the
// provider's paths name the marketplace inside the path instead of the prefix; they answer only
// without the prefix, and only for the sandbox's own marketplace.

const requestCancellation = changing((state, c) => cancelBoleto(state, idOf(c), c.now()), 202);

/** Sends a receipt by `method` to where the body says. */
const sendBy = (method: 'email' | 'sms') =>
  planned(
    (c: RequestContext<RequestBody<'receipts.email' | 'receipts.sms'>>) => deliveryTarget(c.body),
    (to, state, c) => sendReceipt(state, idOf(c), method, to, c.now()),
  );

export const documentRoutes = {
  'boletos.get': reading((state, c) => boletoView(findBoleto(state, idOf(c)), state.marketplace_id)),
  // The provider sends a boleto to its buyer's address on file and takes no body at all.
  'boletos.send': flagged({ noBody: true }, changing((state, c) => emailBoleto(state, idOf(c), c.now()))),
  'boletos.cancel': async (c) => {
    requireMarketplace(c.params.marketplace_id ?? '');
    return requestCancellation(c);
  },
  'receipts.get': reading((state, c) => receiptView(state, findReceipt(state, idOf(c)))),
  'receipts.email': sendBy('email'),
  'receipts.sms': sendBy('sms'),
  'receipts.render': async (c) => {
    requireMarketplace(c.params.marketplace_id ?? '');
    const state = await readState(c.stateDir, c.now);
    const stored = findReceipt(state, idOf(c));
    const method = stored.txn.payment_method;
    const html = renderReceiptHtml(receiptView(state, stored), method.resource === 'card' ? method.last4_digits : null);
    return { status: 200, body: html, contentType: 'text/html; charset=utf-8' };
  },
  'receivables.get': reading((state, c) => findReceivable(state, idOf(c))),
  'receivables.listByTransaction': reading((state, c) => listTransactionReceivables(state, findTransaction(state, idOf(c)), c.query, c.path)),
} satisfies RouteTable;

export const documentSandboxRoutes = {
  // For profiles without a marketplace id, which call every path unprefixed (payctl api).
  'boletos.cancelWithoutMarketplace': {
    method: 'POST',
    path: '/boletos/cancellation/transactions/{id}',
    marketplaceScoped: false,
    outsidePrefix: true,
    sandboxOnly: true,
    handler: requestCancellation,
  },
} satisfies Record<string, SandboxOnlyRoute>;
