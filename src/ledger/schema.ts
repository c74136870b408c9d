// The ledger's tables, as numbered migrations: a store applies those its database has not had yet,
// in order, and refuses a database that a newer payctl has moved past (its tables may mean more
// than this one knows). The two stores keep the same tables; only the column types differ.

export const INTENT_COLUMNS = [
  'scope',
  'key',
  'operation',
  'target',
  'requested_cents',
  'amount_cents',
  'before',
  'fingerprint',
  'batch',
  'batch_name',
  'row',
  'state',
  'detail',
  'proof',
  'created_at',
  'settle_until',
  'updated_at',
  'holder',
  'operator_name',
  'agent',
  'session',
  'pid',
] as const;

export const LOCK_COLUMNS = ['scope', 'key', 'holder', 'host_id', 'pid', 'started', 'token', 'since', 'expires_at'] as const;

const table = (id: string, int: string) => `
CREATE TABLE payctl_intents (
  id ${id},
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  operation TEXT NOT NULL,
  target TEXT NOT NULL,
  requested_cents ${int},
  amount_cents ${int},
  before TEXT,
  fingerprint TEXT,
  batch TEXT,
  batch_name TEXT,
  row ${int},
  state TEXT NOT NULL,
  detail TEXT,
  proof TEXT,
  created_at ${int} NOT NULL,
  settle_until ${int},
  updated_at ${int} NOT NULL,
  holder TEXT NOT NULL,
  operator_name TEXT,
  agent TEXT,
  session TEXT,
  pid ${int} NOT NULL
);
CREATE INDEX payctl_intents_by_key ON payctl_intents (scope, key, id);
CREATE INDEX payctl_intents_by_fingerprint ON payctl_intents (scope, fingerprint);
CREATE INDEX payctl_intents_by_time ON payctl_intents (scope, created_at);
CREATE TABLE payctl_locks (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  holder TEXT NOT NULL,
  host_id TEXT NOT NULL,
  pid ${int} NOT NULL,
  started TEXT NOT NULL,
  token TEXT NOT NULL,
  since ${int} NOT NULL,
  expires_at ${int} NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX payctl_locks_by_token ON payctl_locks (token);
CREATE TABLE payctl_meta (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE payctl_rules (
  scope TEXT NOT NULL,
  id TEXT NOT NULL,
  operation TEXT NOT NULL,
  actor TEXT NOT NULL,
  kind TEXT NOT NULL,
  amount_cents ${int},
  per TEXT,
  expires_hours ${int},
  confirm_up_to_cents ${int},
  state TEXT NOT NULL,
  set_by TEXT NOT NULL,
  set_by_name TEXT,
  set_at ${int} NOT NULL,
  approved_by TEXT,
  approved_by_name TEXT,
  approved_at ${int},
  removed_by TEXT,
  removed_by_name TEXT,
  removed_at ${int},
  PRIMARY KEY (scope, id)
);
CREATE TABLE payctl_requests (
  scope TEXT NOT NULL,
  id TEXT NOT NULL,
  operation TEXT NOT NULL,
  key TEXT,
  target TEXT,
  amount_cents ${int},
  currency TEXT,
  digest TEXT,
  summary TEXT NOT NULL,
  replay TEXT,
  change TEXT,
  batch TEXT,
  batch_name TEXT,
  row ${int},
  rule_id TEXT,
  requester TEXT NOT NULL,
  requester_name TEXT,
  requester_kind TEXT NOT NULL,
  requester_agent TEXT,
  state TEXT NOT NULL,
  created_at ${int} NOT NULL,
  expires_at ${int} NOT NULL,
  updated_at ${int} NOT NULL,
  decided_by TEXT,
  decided_by_name TEXT,
  decided_at ${int},
  reason TEXT,
  intent_id ${int},
  PRIMARY KEY (scope, id)
);
CREATE INDEX payctl_requests_by_time ON payctl_requests (scope, created_at);
CREATE INDEX payctl_requests_by_batch ON payctl_requests (scope, batch);
`;

/** Migration n (1-based) brings a database from version n-1 to n. */
export const SQLITE_MIGRATIONS: readonly string[] = [table('INTEGER PRIMARY KEY', 'INTEGER')];
export const POSTGRES_MIGRATIONS: readonly string[] = [table('BIGSERIAL PRIMARY KEY', 'BIGINT')];

export const SCHEMA_VERSION = SQLITE_MIGRATIONS.length;

/**
 * A migration as statements that make only what is missing: `ledger reset` repairs a ledger some of
 * whose tables were dropped (and gives it a new identity, since what they held is gone).
 */
export function onlyWhatIsMissing(migration: string): string {
  return migration.replace(/CREATE (TABLE|INDEX) (?!IF NOT EXISTS)/gi, 'CREATE $1 IF NOT EXISTS ');
}

/** Every table of a ledger, as its migrations make them: one missing is a ledger lost (open.ts). */
export const LEDGER_TABLES: readonly string[] = ['payctl_schema', ...[...POSTGRES_MIGRATIONS.join('\n').matchAll(/CREATE TABLE (?:IF NOT EXISTS )?(\w+)/gi)].map((m) => m[1] as string)];

/** A database made by a newer payctl: nothing is written to it. */
export function newerSchema(where: string, version: number): string {
  return `the ledger ${where} was made by a newer payctl (ledger version ${version}; this payctl knows up to ${SCHEMA_VERSION}); nothing was sent. Upgrade payctl on this machine`;
}
