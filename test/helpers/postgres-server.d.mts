// Types for postgres-server.mjs, which stays plain JavaScript so that run.mjs runs on Node without a build.

export interface PgServer {
  /** postgres://payctl@127.0.0.1:<port>/payctl */
  url: string;
  port: number;
  dataDir: string;
  /** Fast shutdown; the data directory stays, so start() brings the same server back. */
  stop(): Promise<void>;
  /** Starts the stopped (or killed) server again, on the same port and data. */
  start(): Promise<void>;
  /** SIGKILLs the postmaster and its backends: the database vanishes without a goodbye. */
  kill(): Promise<void>;
  /** Stops the server if it runs and removes its temporary directory. */
  destroy(): Promise<void>;
}

/** postgres://payctl@127.0.0.1:<port>/<database>, the database `payctl` unless told. */
export function pgUrl(port: number, database?: string): string;

/** Initialises a cluster in a fresh temporary directory, starts it and creates the database `payctl`. */
export function startPostgres(): Promise<PgServer>;

/** A new empty database on the server, for one test: tests never see each other's tables. */
export function freshDatabase(server: PgServer, name?: string): Promise<string>;
