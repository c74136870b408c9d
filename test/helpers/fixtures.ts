// The setup most test files need, as vitest fixtures: a test names what it uses in its first
// parameter (`it('…', async ({ home, recording }) => …)`), gets it fresh, and has it taken down
// after it, whether it passed or not. Tables go through `it.for`, which passes the context;
// `it.each` does not.
import { test as base } from 'vitest';
import type { ApiClient, ClientOptions } from '../../src/api/client.js';
import type { Fresh } from '../sandbox/helpers.js';
import { recordingServer, type RecordingServer, type Reply, type Route } from './recording-server.js';
import { tempHome } from './run.js';

export interface Fixtures {
  /** A fresh PAYCTL_HOME (never the real one), removed after the test. */
  home: string;
  /**
   * Starts a recording server answering with `route` (see recording-server.ts: every stub must
   * be asked for; no replies is a service that must be asked nothing). Every server the test
   * started is closed after it.
   */
  recording: (route: Route | Reply[]) => Promise<RecordingServer>;
  /** An embedded sandbox on a state directory of its own, closed and removed after the test. */
  sandbox: Fresh;
  /** One embedded sandbox for all the tests of a file, closed and removed after the last one. */
  fileSandbox: Fresh;
  /** process.env, put back as it was after the test: a test may set and delete freely. */
  env: NodeJS.ProcessEnv;
  /**
   * Makes an ApiClient for `baseUrl`: a test key, the CLI's default timeout (30 s) and 1 ms between
   * retries unless `options` say otherwise. A test of a deadline gives its own: a short default
   * failed tests of other things on a loaded machine. Every client the test made is closed after it.
   */
  apiClient: (baseUrl: string, options?: Partial<ClientOptions>) => ApiClient;
}

// vitest reads which fixtures a fixture needs from its first parameter's pattern: `{}` is none.
// What follows `use` runs after the test, failed or not.
export const test = base.extend<Fixtures>({
  home: async ({}, use) => {
    const made = tempHome();
    await use(made.home);
    made.cleanup();
  },
  recording: async ({}, use) => {
    const started: RecordingServer[] = [];
    await use(async (route) => {
      const server = await recordingServer(route);
      started.push(server);
      return server;
    });
    await Promise.all(started.map((server) => server.close()));
  },
  sandbox: async ({}, use) => {
    // Loaded only by the tests that use it: the sandbox is a large module graph.
    const { freshSandbox } = await import('../sandbox/helpers.js');
    const fresh = await freshSandbox();
    await use(fresh);
    await fresh.close();
  },
  apiClient: async ({}, use) => {
    const { ApiClient } = await import('../../src/api/client.js');
    const open = new Set<ApiClient>();
    await use((baseUrl, options = {}) => {
      const client = new ApiClient({ baseUrl, apiKey: 'zpk_test_x', timeoutMs: 30_000, userAgent: 'payctl-test', retryBaseMs: 1, ...options });
      // A test may close a client itself (to time it); a second close would throw.
      const close = client.close.bind(client);
      client.close = async () => {
        open.delete(client);
        await close();
      };
      open.add(client);
      return client;
    });
    for (const client of open) await client.close();
  },
  fileSandbox: fileSandboxOn(),
  env: async ({}, use) => {
    const saved = { ...process.env };
    await use(process.env);
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  },
});

export const it = test;

/** `it` whose fileSandbox runs on the clock `now` (a pinned one, say). */
export function itOnClock(now: () => Date) {
  return test.extend<{ fileSandbox: Fresh }>({ fileSandbox: fileSandboxOn(now) });
}

/** The fileSandbox fixture, on the clock `now` when given. */
function fileSandboxOn(now?: () => Date): [(context: object, use: (fresh: Fresh) => Promise<void>) => Promise<void>, { scope: 'file' }] {
  return [
    async ({}, use) => {
      const { freshSandbox } = await import('../sandbox/helpers.js');
      const fresh = await freshSandbox(now);
      await use(fresh);
      await fresh.close();
    },
    { scope: 'file' },
  ];
}
