// The URL of an operation of the provider's table: its path with the parameters filled in, under
// `marketplaces/{id}/` when it is marketplace-scoped and the profile names one.

import { UsageError } from '../errors.js';
import { endpointOf, type Target } from '../provider/endpoints.js';

function describeTarget(target: Target): string {
  return typeof target === 'string' ? target : `${target.method} ${target.path}`;
}

export interface UrlParts {
  baseUrl: string;
  marketplaceId?: string | undefined;
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
}

export function buildUrl(operation: Target, parts: UrlParts): URL {
  const endpoint = endpointOf(operation);
  if (endpoint.requiresMarketplace && !parts.marketplaceId) {
    throw new UsageError(`this operation needs the profile's marketplace_id (set it with 'payctl config set marketplace_id <id>')`);
  }
  let path = endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = name === 'marketplace_id' ? parts.marketplaceId : parts.params?.[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${describeTarget(operation)}`);
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
