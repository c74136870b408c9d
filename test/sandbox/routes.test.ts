// The sandbox's route table is keyed by the endpoint table's operations, and one matcher reads a
// method and path back to its operation: for the sandbox's server and for the tests' contract check.
import { describe, expect, it } from 'vitest';
import { endpoints, type Endpoint, type Operation } from '../../src/provider/endpoints.js';
import { apiPathOf, matcherOf, operationOf } from '../../src/provider/operation-of.js';
import { findRoute, operationRoutes, sandboxOnlyRoutes } from '../../src/sandbox/routes.js';

const operations = Object.entries(endpoints) as [Operation, Endpoint][];

/** `path` with each `{name}` filled in by a value of its own, and those values by name. */
function filled(path: string): { url: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const url = path.replace(/\{(\w+)\}/g, (_, name: string) => (params[name] = `v-${name}`));
  return { url, params };
}

describe('the route table', () => {
  it('serves every operation of the endpoint table, and nothing else but its sandbox-only routes', () => {
    expect(Object.keys(operationRoutes).sort()).toEqual(Object.keys(endpoints).sort());
    for (const handler of Object.values(operationRoutes)) expect(typeof handler).toBe('function');
    for (const [name, route] of Object.entries(sandboxOnlyRoutes)) {
      expect(Object.hasOwn(endpoints, name), name).toBe(false);
      expect(route.sandboxOnly, name).toBe(true);
    }
  });

  it('finds the sandbox-only routes by their own paths', () => {
    for (const [name, route] of Object.entries(sandboxOnlyRoutes)) {
      const { url, params } = filled(route.path);
      const found = findRoute(route.method, apiPathOf(`/v1${url}`)!);
      expect(found && 'route' in found ? found.params : found, name).toEqual(params);
    }
  });
});

describe('the one matcher', () => {
  it("maps every endpoint's path, with its values filled in, back to its operation", () => {
    const match = matcherOf(endpoints);
    for (const [operation, endpoint] of operations) {
      const { url, params } = filled(endpoint.path);
      expect(match(endpoint.method, apiPathOf(`/v1${url}`)!), operation).toEqual({ operation, params });
      expect(operationOf(endpoint.method, `/v1${url}?limit=1`), operation).toBe(operation);
      // Under the marketplace prefix too, but for the paths that name the marketplace themselves.
      const prefixed = operationOf(endpoint.method, `/v1/marketplaces/m1${url}`);
      if (endpoint.requiresMarketplace) expect(prefixed, operation).not.toBe(operation);
      else expect(prefixed, operation).toBe(operation);
    }
  });

  it('takes literal segments before values, and a known path with another method is told its methods', () => {
    const match = matcherOf(endpoints);
    expect(match('GET', { segments: ['buyers', 'search'] })).toEqual({ operation: 'buyers.search', params: {} });
    expect(match('POST', { segments: ['receipts', 'r1', 'emails'] })).toEqual({ operation: 'receipts.email', params: { id: 'r1' } });
    expect(match('GET', { segments: ['receipts', 'r1', 'emails'] })).toEqual({ allowed: ['POST'] });
    expect(match('PATCH', { segments: ['buyers', 'b1'] })).toEqual({ allowed: ['GET', 'PUT', 'DELETE'] });
    expect(match('GET', { segments: ['buyers', 'b1', 'nothing'] })).toBeUndefined();
    expect(apiPathOf('/v2/buyers')).toBeUndefined();
    expect(apiPathOf('/v1/marketplaces/m1/buyers/a%2Fb')).toEqual({ marketplace: 'm1', segments: ['buyers', 'a/b'] });
    expect(operationOf('GET', '/v1/buyers/%E0%A4%A')).toBeUndefined();
  });
});
