import { endpoints, type Endpoint, type HttpMethod, type Operation } from './endpoints.js';

// Which operation a request is, read off an endpoint table: the one matcher from a method and a
// path to an operation. The sandbox serves each request with it (over the endpoint table and its
// own few sandbox-only routes), and the tests read each request the sandbox answered with it.

/** A request's path under /v1/: its segments, percent-decoded, with the marketplace prefix taken off. */
export interface ApiPath {
  segments: string[];
  /** The id in /v1/marketplaces/{id}/…, when the path has that prefix. */
  marketplace?: string;
}

/**
 * `pathname` (no query) as a path under /v1/, or undefined when it is not one. A segment that is not
 * valid percent-encoding throws a URIError.
 */
export function apiPathOf(pathname: string): ApiPath | undefined {
  const [root, ...segments] = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (root !== 'v1') return undefined;
  const [first, marketplace, ...rest] = segments;
  return first === 'marketplaces' && marketplace !== undefined && rest.length > 0 ? { segments: rest, marketplace } : { segments };
}

export interface Matched<Name extends string> {
  operation: Name;
  /** The path's values by the names in its braces: `{id}` → params.id. */
  params: Record<string, string>;
}

/** A path some operations have, but none with the method asked: the methods it takes (HTTP's 405 and Allow). */
export interface WrongMethod {
  allowed: HttpMethod[];
}

export type Matcher<Name extends string> = (method: string, path: ApiPath) => Matched<Name> | WrongMethod | undefined;

/** The operations of one path: its segments (`{name}` captures one) and its operation per method. */
interface PathOf<Name extends string> {
  parts: string[];
  byMethod: Map<string, { operation: Name; parts: string[] }>;
  outsidePrefix: boolean;
}

const isCapture = (part: string) => part.startsWith('{');

/** The order an Allow header names methods in. */
const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'DELETE'];

/**
 * A matcher over `table`. A path is matched before its method, so a known path asked with another
 * method is a WrongMethod; where two paths both fit (buyers/search and buyers/{id}), the one whose
 * first differing segment is literal wins. A path under the marketplace prefix matches every
 * operation but those outside it (`requiresMarketplace`, `outsidePrefix`); an empty segment counts for nothing (the
 * provider's trailing slash in /recurrence_plans/).
 */
export function matcherOf<Name extends string>(table: Record<Name, Endpoint>): Matcher<Name> {
  const paths = new Map<string, PathOf<Name>>();
  for (const [operation, endpoint] of Object.entries(table) as [Name, Endpoint][]) {
    const parts = endpoint.path.split('/').filter(Boolean);
    const shape = parts.map((part) => (isCapture(part) ? '{}' : part)).join('/');
    const path = paths.get(shape) ?? { parts, byMethod: new Map(), outsidePrefix: false };
    path.byMethod.set(endpoint.method, { operation, parts });
    path.outsidePrefix ||= endpoint.outsidePrefix === true || endpoint.requiresMarketplace === true;
    paths.set(shape, path);
  }
  // Literal segments before captures, position by position: the first path that fits is the one.
  const rank = (path: PathOf<Name>) => path.parts.map((part) => (isCapture(part) ? '1' : '0')).join('');
  const ordered = [...paths.values()].sort((a, b) => a.parts.length - b.parts.length || rank(a).localeCompare(rank(b)));

  return (method, { segments, marketplace }) => {
    const path = ordered.find(
      (candidate) =>
        candidate.parts.length === segments.length &&
        !(marketplace !== undefined && candidate.outsidePrefix) &&
        candidate.parts.every((part, i) => isCapture(part) || part === segments[i]),
    );
    if (!path) return undefined;
    const found = path.byMethod.get(method);
    if (!found) return { allowed: METHODS.filter((known) => path.byMethod.has(known)) };
    const params: Record<string, string> = {};
    found.parts.forEach((part, i) => {
      if (isCapture(part)) params[part.slice(1, -1)] = segments[i] as string;
    });
    return { operation: found.operation, params };
  };
}

const matchOperation = matcherOf(endpoints);

/** The operation of the endpoint table a request to `url` (a path, with or without its query) is, or undefined. */
export function operationOf(method: string, url: string): Operation | undefined {
  let path: ApiPath | undefined;
  try {
    path = apiPathOf(url.split('?')[0] ?? '');
  } catch {
    return undefined;
  }
  const matched = path && matchOperation(method, path);
  return matched && 'operation' in matched ? matched.operation : undefined;
}
