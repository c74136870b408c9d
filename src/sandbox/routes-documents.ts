import { boletoView, cancelBoleto, emailBoleto, findBoleto } from './boletos.js';
import { SANDBOX_MARKETPLACE_ID } from '../provider/sandbox-account.js';
import { parseEmailTarget, parsePhoneTarget } from './deliveries.js';
import { notFound } from './errors.js';
import { renderReceiptHtml } from './receipt-html.js';
import { findReceipt, receiptView, sendReceipt } from './receipts.js';
import { findReceivable, listTransactionReceivables } from './receivables.js';
import type { RequestContext, Route } from './route.js';
import { mutateState, readState } from './store.js';
import { findTransaction } from './transactions.js';

// Routes of what a sale produces: its boleto, its receipt and its receivables. Two of the
// provider's paths name the marketplace inside the path instead of the prefix; they answer only
// without the prefix, and only for the sandbox's own marketplace.

const id = (c: RequestContext): string => c.params.id ?? '';

function requireMarketplace(c: RequestContext): void {
  const marketplace = c.params.marketplace ?? '';
  if (marketplace !== SANDBOX_MARKETPLACE_ID) throw notFound('marketplace', marketplace);
}

async function requestCancellation(c: RequestContext) {
  const body = await mutateState(c.stateDir, c.now, (state) => cancelBoleto(state, id(c), c.now()));
  return { status: 202, body };
}

export const documentRoutes: Route[] = [
  {
    pattern: ['boletos', ':id'],
    handlers: {
      GET: async (c) => {
        const state = await readState(c.stateDir, c.now);
        return { status: 200, body: boletoView(findBoleto(state, id(c)), state.marketplace_id) };
      },
    },
  },
  {
    // The provider sends a boleto to its buyer's address on file and takes no body at all.
    pattern: ['boletos', ':id', 'emails'],
    noBody: true,
    handlers: {
      POST: async (c) => ({ status: 200, body: await mutateState(c.stateDir, c.now, (state) => emailBoleto(state, id(c), c.now())) }),
    },
  },
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
  {
    pattern: ['receipts', ':id'],
    handlers: {
      GET: async (c) => {
        const state = await readState(c.stateDir, c.now);
        return { status: 200, body: receiptView(state, findReceipt(state, id(c))) };
      },
    },
  },
  {
    pattern: ['receipts', ':id', 'emails'],
    handlers: {
      POST: async (c) => {
        const to = parseEmailTarget(c.body);
        return { status: 200, body: await mutateState(c.stateDir, c.now, (state) => sendReceipt(state, id(c), 'email', to, c.now())) };
      },
    },
  },
  {
    pattern: ['receipts', ':id', 'texts'],
    handlers: {
      POST: async (c) => {
        const to = parsePhoneTarget(c.body);
        return { status: 200, body: await mutateState(c.stateDir, c.now, (state) => sendReceipt(state, id(c), 'sms', to, c.now())) };
      },
    },
  },
  {
    // After receipts/{id}/emails and /texts, whose literal last segment would otherwise be taken for a receipt id.
    pattern: ['receipts', ':marketplace', ':id'],
    outsidePrefix: true,
    handlers: {
      GET: async (c) => {
        requireMarketplace(c);
        const state = await readState(c.stateDir, c.now);
        const stored = findReceipt(state, id(c));
        const method = stored.txn.payment_method;
        const html = renderReceiptHtml(receiptView(state, stored), method.resource === 'card' ? method.last4_digits : null);
        return { status: 200, body: html, contentType: 'text/html; charset=utf-8' };
      },
    },
  },
  {
    pattern: ['receivables', ':id'],
    handlers: {
      GET: async (c) => ({ status: 200, body: findReceivable(await readState(c.stateDir, c.now), id(c)) }),
    },
  },
  {
    pattern: ['transactions', ':id', 'receivables'],
    handlers: {
      GET: async (c) => {
        const state = await readState(c.stateDir, c.now);
        return { status: 200, body: listTransactionReceivables(state, findTransaction(state, id(c)), c.query, c.path) };
      },
    },
  },
];
