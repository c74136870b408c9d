import { boletoView, cancelBoleto, emailBoleto, findBoleto } from './boletos.js';
import { SANDBOX_MARKETPLACE_ID } from '../provider/sandbox-account.js';
import { parseEmailTarget, parsePhoneTarget } from './deliveries.js';
import { notFound } from './errors.js';
import { renderReceiptHtml } from './receipt-html.js';
import { findReceipt, receiptView, sendReceipt } from './receipts.js';
import { findReceivable, listTransactionReceivables } from './receivables.js';
import { changing, idOf, planned, reading } from './handlers.js';
import type { RequestContext, Route } from './route.js';
import { readState } from './store.js';
import { findTransaction } from './transactions.js';

// Routes of what a sale produces: its boleto, its receipt and its receivables. Two of the
// provider's paths name the marketplace inside the path instead of the prefix; they answer only
// without the prefix, and only for the sandbox's own marketplace.

function requireMarketplace(c: RequestContext): void {
  const marketplace = c.params.marketplace ?? '';
  if (marketplace !== SANDBOX_MARKETPLACE_ID) throw notFound('marketplace', marketplace);
}

const requestCancellation = changing((state, c) => cancelBoleto(state, idOf(c), c.now()), 202);

/** Sends a receipt by `method` to where the body says (`parse` reads and checks it). */
const sendBy = (method: 'email' | 'sms', parse: (body: RequestContext['body']) => string) =>
  planned(
    (c) => parse(c.body),
    (to, state, c) => sendReceipt(state, idOf(c), method, to, c.now()),
  );

export const documentRoutes: Route[] = [
  { pattern: ['boletos', ':id'], handlers: { GET: reading((state, c) => boletoView(findBoleto(state, idOf(c)), state.marketplace_id)) } },
  // The provider sends a boleto to its buyer's address on file and takes no body at all.
  { pattern: ['boletos', ':id', 'emails'], noBody: true, handlers: { POST: changing((state, c) => emailBoleto(state, idOf(c), c.now())) } },
  {
    pattern: ['boletos', 'cancellation', 'marketplaces', ':marketplace', 'transactions', ':id'],
    outsidePrefix: true,
    handlers: {
      POST: async (c) => {
        requireMarketplace(c);
        return requestCancellation(c);
      },
    },
  },
  // For profiles without a marketplace id, which call every path unprefixed.
  { pattern: ['boletos', 'cancellation', 'transactions', ':id'], outsidePrefix: true, handlers: { POST: requestCancellation } },
  { pattern: ['receipts', ':id'], handlers: { GET: reading((state, c) => receiptView(state, findReceipt(state, idOf(c)))) } },
  { pattern: ['receipts', ':id', 'emails'], handlers: { POST: sendBy('email', parseEmailTarget) } },
  { pattern: ['receipts', ':id', 'texts'], handlers: { POST: sendBy('sms', parsePhoneTarget) } },
  {
    // After receipts/{id}/emails and /texts, whose literal last segment would otherwise be taken for a receipt id.
    pattern: ['receipts', ':marketplace', ':id'],
    outsidePrefix: true,
    handlers: {
      GET: async (c) => {
        requireMarketplace(c);
        const state = await readState(c.stateDir, c.now);
        const stored = findReceipt(state, idOf(c));
        const method = stored.txn.payment_method;
        const html = renderReceiptHtml(receiptView(state, stored), method.resource === 'card' ? method.last4_digits : null);
        return { status: 200, body: html, contentType: 'text/html; charset=utf-8' };
      },
    },
  },
  { pattern: ['receivables', ':id'], handlers: { GET: reading((state, c) => findReceivable(state, idOf(c))) } },
  {
    pattern: ['transactions', ':id', 'receivables'],
    handlers: { GET: reading((state, c) => listTransactionReceivables(state, findTransaction(state, idOf(c)), c.query, c.path)) },
  },
];
