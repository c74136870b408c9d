// A real PostgreSQL server for the tests of the shared ledger: one per test file. The server itself
// is in postgres-server.mjs, plain JavaScript that the benchmark (run.mjs) uses too; this adds the
// vitest helper.
import { afterAll, beforeAll } from 'vitest';
import { startPostgres, type PgServer } from './postgres-server.mjs';

export { freshDatabase, pgUrl, startPostgres, type PgServer } from './postgres-server.mjs';

/** One server for the test file: started before its tests, destroyed after them. */
export function postgresForFile(): () => PgServer {
  let server: PgServer | undefined;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
    server = undefined;
  }, 60_000);
  return () => {
    if (!server) throw new Error('PostgreSQL is not running: call inside a test of the file that set it up');
    return server;
  };
}
