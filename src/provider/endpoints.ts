// Every operation the CLI calls, in one table. Paths follow the seed ({base_url}/v1/...);
// `marketplaceScoped` operations get `marketplaces/{id}/` inserted after /v1/ when the profile
// has a marketplace_id, as the real provider lays out its API. The few provider paths that sit
// outside that prefix name the marketplace themselves and are not scoped.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Endpoint {
  method: HttpMethod;
  path: string;
  marketplaceScoped: boolean;
  /** Moves money or changes a payment: outcome must be reconciled when unknown. */
  movesMoney?: boolean;
  /** The path itself names the marketplace: a profile without marketplace_id cannot call it, and it is never under the prefix. */
  requiresMarketplace?: boolean;
  /** Never under the marketplace prefix, though the path names no marketplace (a sandbox-only path). */
  outsidePrefix?: boolean;
  /** The sandbox's own: the provider has no such operation. */
  sandboxOnly?: boolean;
}

const scoped = (method: HttpMethod, path: string, movesMoney = false): Endpoint => ({
  method,
  path,
  marketplaceScoped: true,
  movesMoney,
});

export const endpoints = {
  'transactions.create': scoped('POST', '/transactions', true),
  'transactions.list': scoped('GET', '/transactions'),
  'transactions.get': scoped('GET', '/transactions/{id}'),
  'transactions.update': scoped('PUT', '/transactions/{id}'),
  'transactions.void': scoped('POST', '/transactions/{id}/void', true),
  'transactions.capture': scoped('POST', '/transactions/{id}/capture', true),
  'transactions.cancellationLetter': scoped('GET', '/transactions/{id}/cancelled-letter'),
  'transactions.approve': scoped('POST', '/transactions/{id}/approve', true),
  'transactions.splits.list': scoped('GET', '/transactions/{id}/split_rules'),
  'transactions.splits.add': scoped('POST', '/transactions/{id}/split_rules', true),
  'transactions.splits.get': scoped('GET', '/transactions/{id}/split_rules/{rule}'),
  'transactions.splits.remove': scoped('DELETE', '/transactions/{id}/split_rules/{rule}', true),
  'cards.tokenize': scoped('POST', '/cards/tokens'),
  'cards.associate': scoped('POST', '/cards'),
  'cards.get': scoped('GET', '/cards/{id}'),
  'cards.remove': scoped('DELETE', '/cards/{id}'),
  // Sellers: the provider publishes only its seller-scoped lists (below), none for the sellers
  // themselves; these are ours, one create and update path per kind as people and companies have
  // different bodies.
  'sellers.createIndividual': scoped('POST', '/sellers/individuals'),
  'sellers.createBusiness': scoped('POST', '/sellers/businesses'),
  'sellers.list': scoped('GET', '/sellers'),
  'sellers.get': scoped('GET', '/sellers/{id}'),
  'sellers.updateIndividual': scoped('PUT', '/sellers/individuals/{id}'),
  'sellers.updateBusiness': scoped('PUT', '/sellers/businesses/{id}'),
  'sellers.remove': scoped('DELETE', '/sellers/{id}'),
  // One seller's records: the provider's own seller-scoped lists.
  'transactions.listBySeller': scoped('GET', '/sellers/{id}/transactions'),
  'subscriptions.listBySeller': scoped('GET', '/sellers/{id}/subscriptions'),
  'invoices.listBySeller': scoped('GET', '/sellers/{id}/invoices'),
  'receivables.listBySeller': scoped('GET', '/sellers/{id}/receivables'),
  'buyers.create': scoped('POST', '/buyers'),
  'buyers.list': scoped('GET', '/buyers'),
  'buyers.get': scoped('GET', '/buyers/{id}'),
  'buyers.update': scoped('PUT', '/buyers/{id}'),
  'buyers.remove': scoped('DELETE', '/buyers/{id}'),
  'buyers.search': scoped('GET', '/buyers/search'),
  'sources.create': scoped('POST', '/sources'),
  'sources.get': scoped('GET', '/sources/{id}'),
  'sources.remove': scoped('DELETE', '/sources/{id}'),
  'boletos.get': scoped('GET', '/boletos/{id}'),
  'boletos.send': scoped('POST', '/boletos/{id}/emails'),
  // The provider names the marketplace inside these two paths instead of prefixing them.
  'boletos.cancel': { method: 'POST', path: '/boletos/cancellation/marketplaces/{marketplace_id}/transactions/{id}', marketplaceScoped: false, requiresMarketplace: true, movesMoney: true },
  'receipts.get': scoped('GET', '/receipts/{id}'),
  'receipts.email': scoped('POST', '/receipts/{id}/emails'),
  'receipts.sms': scoped('POST', '/receipts/{id}/texts'),
  'receipts.render': { method: 'GET', path: '/receipts/{marketplace_id}/{id}', marketplaceScoped: false, requiresMarketplace: true },
  'receivables.get': scoped('GET', '/receivables/{id}'),
  'receivables.listByTransaction': scoped('GET', '/transactions/{id}/receivables'),
  // The provider writes the plan collection with a trailing slash; kept as it is.
  'plans.create': scoped('POST', '/recurrence_plans/'),
  'plans.list': scoped('GET', '/recurrence_plans/'),
  'plans.get': scoped('GET', '/recurrence_plans/{id}'),
  'plans.update': scoped('PUT', '/recurrence_plans/{id}'),
  'plans.remove': scoped('DELETE', '/recurrence_plans/{id}'),
  'subscriptions.create': scoped('POST', '/recurrence_subscriptions'),
  'subscriptions.list': scoped('GET', '/recurrence_subscriptions'),
  'subscriptions.get': scoped('GET', '/recurrence_subscriptions/{id}'),
  'subscriptions.update': scoped('PUT', '/recurrence_subscriptions/{id}'),
  'subscriptions.remove': scoped('DELETE', '/recurrence_subscriptions/{id}'),
  'subscriptions.suspend': scoped('POST', '/recurrence_subscriptions/{id}/suspend'),
  'subscriptions.reactivate': scoped('POST', '/recurrence_subscriptions/{id}/reactivate'),
  'invoices.create': scoped('POST', '/invoices'),
  'invoices.list': scoped('GET', '/invoices'),
  'invoices.get': scoped('GET', '/invoices/{id}'),
  'invoices.remove': scoped('DELETE', '/invoices/{id}'),
  'invoices.approve': scoped('POST', '/invoices/{id}/approve', true),
  'invoices.refund': scoped('DELETE', '/invoices/{id}/void', true),
  // Balances, transfers and future entries: the provider publishes no paths for these (seed 4.4
  // names them only), so these are ours, laid out like its receivables paths.
  'balances.accountsByBuyer': scoped('GET', '/buyers/{id}/balances'),
  'balances.history': scoped('GET', '/balances/history'),
  'balances.historyByAccount': scoped('GET', '/balances/{id}/history'),
  'balances.historyByBuyer': scoped('GET', '/buyers/{id}/balances/history'),
  'balances.get': scoped('GET', '/balances/{id}'),
  'balances.getBySeller': scoped('GET', '/sellers/{id}/balances'),
  'balances.current': scoped('GET', '/balances/{id}/current'),
  'balances.currentBySeller': scoped('GET', '/sellers/{id}/balances/current'),
  'balances.historyBySeller': scoped('GET', '/sellers/{id}/balances/history'),
  'transfers.list': scoped('GET', '/transfers'),
  'transfers.listBySeller': scoped('GET', '/sellers/{id}/transfers'),
  'transfers.get': scoped('GET', '/transfers/{id}'),
  'transfers.transactions': scoped('GET', '/transfers/{id}/transactions'),
  'futureEntries.list': scoped('GET', '/sellers/{id}/future_entries'),
  // Webhooks: paths of our own, like the provider's; events follow its …/events paths.
  'webhooks.create': scoped('POST', '/webhooks'),
  'webhooks.list': scoped('GET', '/webhooks'),
  'webhooks.get': scoped('GET', '/webhooks/{id}'),
  'webhooks.remove': scoped('DELETE', '/webhooks/{id}'),
  'events.list': scoped('GET', '/events'),
  'events.get': scoped('GET', '/events/{id}'),
  'events.replay': scoped('POST', '/events/{id}/actions/replay'),
  // Sandbox-only: the emulation's clock, which drives its billing cycles.
  'sandbox.clock': { method: 'GET', path: '/sandbox/clock', marketplaceScoped: false, sandboxOnly: true },
  'sandbox.advance': { method: 'POST', path: '/sandbox/clock/advance', marketplaceScoped: false, sandboxOnly: true },
  'sandbox.generate': { method: 'POST', path: '/sandbox/generate', marketplaceScoped: false, sandboxOnly: true },
} as const satisfies Record<string, Endpoint>;

export type Operation = keyof typeof endpoints;

/** An operation of the table, or an endpoint made up on the spot (`payctl api`). */
export type Target = Operation | Endpoint;

export function endpointOf(target: Target): Endpoint {
  return typeof target === 'string' ? endpoints[target] : target;
}
