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
  'cards.tokenize': scoped('POST', '/cards/tokens'),
} as const satisfies Record<string, Endpoint>;

export type Operation = keyof typeof endpoints;

export interface UrlParts {
  baseUrl: string;
  marketplaceId?: string | undefined;
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
}

export function buildUrl(operation: Operation, parts: UrlParts): URL {
  const endpoint: Endpoint = endpoints[operation];
  let path = endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = name === 'marketplace_id' ? parts.marketplaceId : parts.params?.[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${operation}`);
    return encodeURIComponent(value);
  });
  if (endpoint.marketplaceScoped && parts.marketplaceId) {
    path = `/marketplaces/${encodeURIComponent(parts.marketplaceId)}${path}`;
  }
  const url = new URL(`${parts.baseUrl.replace(/\/+$/, '')}/v1${path}`);
  for (const [key, value] of Object.entries(parts.query ?? {})) {
    if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  }
  return url;
}
