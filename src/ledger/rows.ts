// The ledger's rows as its two stores read and write them: the same columns, whatever the database.
import type { SqlValue } from '../platform/sqlite.js';
import { INTENT_COLUMNS } from './schema.js';
import type { Identity, Intent, Lock, NewIntent } from './types.js';

export type IntentRow = Record<(typeof INTENT_COLUMNS)[number], SqlValue>;

/** An intent as read: every column but the scope, which a store's caller already knows. */
export function intentFromRow(row: Record<string, unknown>): Intent {
  const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    id: Number(row.id),
    key: String(row.key),
    operation: String(row.operation),
    target: String(row.target),
    requested_cents: number(row.requested_cents),
    amount_cents: number(row.amount_cents),
    before: (row.before as string | null) ?? null,
    fingerprint: (row.fingerprint as string | null) ?? null,
    batch: (row.batch as string | null) ?? null,
    batch_name: (row.batch_name as string | null) ?? null,
    row: number(row.row),
    state: row.state as Intent['state'],
    detail: (row.detail as string | null) ?? null,
    proof: (row.proof as string | null) ?? null,
    created_at: Number(row.created_at),
    settle_until: number(row.settle_until),
    updated_at: Number(row.updated_at),
    holder: String(row.holder),
    operator_name: (row.operator_name as string | null) ?? null,
    agent: (row.agent as string | null) ?? null,
    session: (row.session as string | null) ?? null,
    pid: Number(row.pid),
  };
}

export function lockFromRow(row: Record<string, unknown>): Lock {
  return {
    key: String(row.key),
    holder: String(row.holder),
    host_id: String(row.host_id),
    pid: Number(row.pid),
    started: String(row.started),
    token: String(row.token),
    since: Number(row.since),
    expires_at: Number(row.expires_at),
  };
}

/** A new intent's row: written by `me` now, its error message cleaned of anything secret. */
export function newIntentRow(scope: string, intent: NewIntent, me: Identity, now: number, scrub: (text: string) => string): IntentRow {
  return {
    scope,
    key: intent.key,
    operation: intent.operation,
    target: intent.target,
    requested_cents: intent.requested_cents ?? null,
    amount_cents: intent.amount_cents ?? null,
    before: intent.before ?? null,
    fingerprint: intent.fingerprint ?? null,
    batch: intent.batch ?? null,
    batch_name: intent.batch_name ?? null,
    row: intent.row ?? null,
    state: intent.state ?? 'pending',
    detail: intent.detail === undefined || intent.detail === null ? null : scrub(intent.detail),
    proof: intent.proof ?? null,
    created_at: now,
    settle_until: intent.settle_until ?? null,
    updated_at: now,
    holder: me.holder,
    operator_name: me.name ?? null,
    agent: me.agent ?? null,
    session: me.session ?? null,
    pid: me.pid,
  };
}

