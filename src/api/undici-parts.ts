// The parts of undici payctl uses, imported one by one. undici's index also pulls in fetch,
// WebSocket, caches and mocks (≈730 KB bundled, and it wakes Node's own bundled undici too);
// these parts are ≈390 KB, which keeps `payctl transactions get` close to a bare Node request
// in time and memory (see `npm run bench`).
import type { Agent as AgentType, EnvHttpProxyAgent as EnvHttpProxyAgentType } from 'undici';
// @ts-expect-error: undici ships no types for its internal modules; typed from its index below.
import AgentModule from 'undici/lib/dispatcher/agent.js';
// @ts-expect-error: as above.
import EnvHttpProxyAgentModule from 'undici/lib/dispatcher/env-http-proxy-agent.js';
// @ts-expect-error: as above.
import DispatcherModule from 'undici/lib/dispatcher/dispatcher.js';
// @ts-expect-error: as above.
import api from 'undici/lib/api/index.js';

// What undici's own index does: request(), connect() and friends live on every dispatcher, and
// the proxy agent relies on connect().
Object.assign((DispatcherModule as { prototype: object }).prototype, api);

export const Agent = AgentModule as typeof AgentType;
export const EnvHttpProxyAgent = EnvHttpProxyAgentModule as typeof EnvHttpProxyAgentType;
