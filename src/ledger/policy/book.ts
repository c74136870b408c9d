// The team's rules and approval requests, in the ledger's own database (SQLite on this machine,
// PostgreSQL for a team): every method one transaction, its SQL the same on both. Who may do
// what (a person on a terminal approves, never the requester) is for the commands to check;
// what the book guarantees is that a request is decided once, and a rule change approved lands
// with its approval.
import { randomInt } from 'node:crypto';
import { CliError, ExitCode } from '../../errors.js';
import { agentOf, type Actor, type ActorKind } from '../actor.js';
import type { LedgerSql, LedgerStore, SqlParam } from '../types.js';
import type { ApprovalRequest, NewRequest, PolicyOperation, RequestFilter, RequestState, Rule, RuleChange, RuleSpec } from './types.js';

/** Letters and digits no one misreads (no 0/o, 1/l). */
const ID_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

function newId(prefix: string): string {
  let id = prefix;
  for (let i = 0; i < 8; i += 1) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return id;
}

const RULE_COLUMNS = [
  'scope', 'id', 'operation', 'actor', 'kind', 'amount_cents', 'per', 'expires_hours', 'confirm_up_to_cents', 'state',
  'set_by', 'set_by_name', 'set_at', 'approved_by', 'approved_by_name', 'approved_at', 'removed_by', 'removed_by_name', 'removed_at',
] as const;

const REQUEST_COLUMNS = [
  'scope', 'id', 'operation', 'key', 'target', 'amount_cents', 'currency', 'digest', 'summary', 'replay', 'change', 'batch', 'batch_name', 'row',
  'rule_id', 'requester', 'requester_name', 'requester_kind', 'requester_agent', 'state', 'created_at', 'expires_at', 'updated_at', 'decided_by', 'decided_by_name',
  'decided_at', 'reason', 'intent_id',
] as const;

const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));

function ruleFromRow(row: Record<string, unknown>): Rule {
  return {
    id: String(row.id),
    operation: String(row.operation) as PolicyOperation,
    actor: String(row.actor),
    kind: String(row.kind) as Rule['kind'],
    amount_cents: number(row.amount_cents),
    per: text(row.per) as Rule['per'],
    expires_hours: number(row.expires_hours),
    confirm_up_to_cents: number(row.confirm_up_to_cents),
    state: String(row.state) as Rule['state'],
    set_by: String(row.set_by),
    set_by_name: text(row.set_by_name),
    set_at: Number(row.set_at),
    approved_by: text(row.approved_by),
    approved_by_name: text(row.approved_by_name),
    approved_at: number(row.approved_at),
    removed_by: text(row.removed_by),
    removed_by_name: text(row.removed_by_name),
    removed_at: number(row.removed_at),
  };
}

/** A request as read at `now`: a pending one past its expiry reads as expired. */
function requestFromRow(row: Record<string, unknown>, now: number): ApprovalRequest {
  const stored = String(row.state) as RequestState;
  const expires_at = Number(row.expires_at);
  return {
    id: String(row.id),
    operation: String(row.operation) as PolicyOperation,
    key: text(row.key),
    target: text(row.target),
    amount_cents: number(row.amount_cents),
    currency: text(row.currency),
    digest: text(row.digest),
    summary: String(row.summary),
    replay: row.replay === null || row.replay === undefined ? null : (JSON.parse(String(row.replay)) as string[]),
    change: row.change === null || row.change === undefined ? null : (JSON.parse(String(row.change)) as RuleChange),
    batch: text(row.batch),
    batch_name: text(row.batch_name),
    row: number(row.row),
    rule_id: text(row.rule_id),
    requester: String(row.requester),
    requester_name: text(row.requester_name),
    requester_kind: String(row.requester_kind) as ActorKind,
    requester_agent: text(row.requester_agent),
    state: stored === 'pending' && now >= expires_at ? 'expired' : stored,
    created_at: Number(row.created_at),
    expires_at,
    updated_at: Number(row.updated_at),
    decided_by: text(row.decided_by),
    decided_by_name: text(row.decided_by_name),
    decided_at: number(row.decided_at),
    reason: text(row.reason),
    intent_id: number(row.intent_id),
  };
}

const placeholders = (columns: readonly string[]) => columns.map(() => '?').join(', ');

async function insertRule(sql: LedgerSql, scope: string, id: string, spec: RuleSpec, by: Actor, now: number, approvedBy: Actor | undefined): Promise<Rule> {
  const row: Record<(typeof RULE_COLUMNS)[number], SqlParam> = {
    scope,
    id,
    operation: spec.operation,
    actor: spec.actor,
    kind: spec.kind,
    amount_cents: spec.amount_cents,
    per: spec.per,
    expires_hours: spec.expires_hours,
    confirm_up_to_cents: spec.confirm_up_to_cents,
    state: 'active',
    set_by: by.holder,
    set_by_name: by.name ?? null,
    set_at: now,
    approved_by: approvedBy?.holder ?? null,
    approved_by_name: approvedBy?.name ?? null,
    approved_at: approvedBy ? now : null,
    removed_by: null,
    removed_by_name: null,
    removed_at: null,
  };
  await sql.run(`INSERT INTO payctl_rules (${RULE_COLUMNS.join(', ')}) VALUES (${placeholders(RULE_COLUMNS)})`, RULE_COLUMNS.map((c) => row[c]));
  return ruleFromRow(row);
}

async function removeRule(sql: LedgerSql, scope: string, id: string, by: Actor, now: number): Promise<boolean> {
  const changed = await sql.run(`UPDATE payctl_rules SET state = 'removed', removed_by = ?, removed_by_name = ?, removed_at = ? WHERE scope = ? AND id = ? AND state = 'active'`, [
    by.holder,
    by.name ?? null,
    now,
    scope,
    id,
  ]);
  return changed > 0;
}

/** Writes a change of the rules: a rule added (the one it replaces removed), or one removed. Returns the rule added. */
async function writeChange(sql: LedgerSql, scope: string, change: RuleChange, by: Actor, now: number, approvedBy: Actor | undefined): Promise<Rule | undefined> {
  if (change.action === 'remove') {
    // Removed by whoever asked; who approved it is on the request that carried it.
    await removeRule(sql, scope, change.rule, by, now);
    return undefined;
  }
  if (change.replaces) await removeRule(sql, scope, change.replaces, by, now);
  return insertRule(sql, scope, newId('rule_'), change.rule, by, now, approvedBy);
}

export type Decided = { ok: true; request: ApprovalRequest } | { ok: false; request: ApprovalRequest };

export class PolicyBook {
  constructor(private readonly store: Pick<LedgerStore, 'transact'>) {}

  /** The rules in force (with `removed`: every rule ever set), oldest first. */
  rules(options: { removed?: boolean } = {}): Promise<Rule[]> {
    return this.store.transact(async (sql, scope) =>
      (await sql.all(`SELECT * FROM payctl_rules WHERE scope = ?${options.removed ? '' : ` AND state = 'active'`} ORDER BY set_at, id`, [scope])).map(ruleFromRow),
    );
  }

  rule(id: string): Promise<Rule | undefined> {
    return this.store.transact(async (sql, scope) => {
      const [row] = await sql.all('SELECT * FROM payctl_rules WHERE scope = ? AND id = ?', [scope, id]);
      return row && ruleFromRow(row);
    });
  }

  /** A change that takes effect at once (it tightens the rules, or there were none): returns the rule added. */
  applyChange(change: RuleChange, by: Actor, now: number): Promise<Rule | undefined> {
    return this.store.transact((sql, scope) => writeChange(sql, scope, change, by, now, undefined));
  }

  /** Records a request by `by`, pending until decided or `expires_at`. */
  createRequest(request: NewRequest, by: Actor, now: number): Promise<ApprovalRequest> {
    return this.store.transact(async (sql, scope) => {
      const row: Record<(typeof REQUEST_COLUMNS)[number], SqlParam> = {
        scope,
        id: newId('apr_'),
        operation: request.operation,
        key: request.key ?? null,
        target: request.target ?? null,
        amount_cents: request.amount_cents ?? null,
        currency: request.currency ?? null,
        digest: request.digest ?? null,
        summary: request.summary,
        replay: request.replay ? JSON.stringify(request.replay) : null,
        change: request.change ? JSON.stringify(request.change) : null,
        batch: request.batch ?? null,
        batch_name: request.batch_name ?? null,
        row: request.row ?? null,
        rule_id: request.rule_id ?? null,
        requester: by.holder,
        requester_name: by.name ?? null,
        requester_kind: by.kind,
        requester_agent: agentOf(by) ?? null,
        state: 'pending',
        created_at: now,
        expires_at: request.expires_at,
        updated_at: now,
        decided_by: null,
        decided_by_name: null,
        decided_at: null,
        reason: null,
        intent_id: null,
      };
      await sql.run(`INSERT INTO payctl_requests (${REQUEST_COLUMNS.join(', ')}) VALUES (${placeholders(REQUEST_COLUMNS)})`, REQUEST_COLUMNS.map((c) => row[c]));
      return requestFromRow(row, now);
    });
  }

  request(id: string, now: number): Promise<ApprovalRequest | undefined> {
    return this.store.transact(async (sql, scope) => {
      const [row] = await sql.all('SELECT * FROM payctl_requests WHERE scope = ? AND id = ?', [scope, id]);
      return row && requestFromRow(row, now);
    });
  }

  /** Requests, newest first: of these states (expired ones as such), of one batch (its id or name). */
  requests(filter: RequestFilter, now: number): Promise<ApprovalRequest[]> {
    return this.store.transact(async (sql, scope) => {
      const where = ['scope = ?'];
      const params: SqlParam[] = [scope];
      if (filter.batch !== undefined) {
        where.push('(batch = ? OR batch_name = ?)');
        params.push(filter.batch, filter.batch);
      }
      const wanted = filter.states && new Set(filter.states);
      // Expired is read, not stored: pending ones are read to tell, and the states filtered after.
      const stored = wanted && [...new Set([...wanted].map((state) => (state === 'expired' ? 'pending' : state)))];
      if (stored) {
        where.push(`state IN (${placeholders(stored)})`);
        params.push(...stored);
      }
      const rows: ApprovalRequest[] = [];
      let before = Number.MAX_SAFE_INTEGER;
      // In pages, so a filter read after the query still fills the limit.
      for (;;) {
        const page = await sql.all(`SELECT * FROM payctl_requests WHERE ${where.join(' AND ')} AND created_at < ? ORDER BY created_at DESC, id DESC LIMIT 200`, [...params, before]);
        for (const request of page.map((row) => requestFromRow(row, now))) if (!wanted || wanted.has(request.state)) rows.push(request);
        if (page.length < 200 || rows.length >= filter.limit) break;
        before = Number(page[page.length - 1]!.created_at);
      }
      return rows.slice(0, filter.limit);
    });
  }

  /**
   * Takes a pending, unexpired request for `by`, once: of two approvers at once, one gets it and
   * the other is told how it stands. A change of the rules is written in the same commit, and
   * the request is then sent; a money move is `approved` until its sender settles it.
   */
  approve(id: string, by: Actor, now: number): Promise<Decided> {
    return this.decide(id, now, async (sql, scope, request) => {
      const taken = await sql.run(
        `UPDATE payctl_requests SET state = ?, decided_by = ?, decided_by_name = ?, decided_at = ?, updated_at = ? WHERE scope = ? AND id = ? AND state = 'pending' AND expires_at > ?`,
        [request.change ? 'sent' : 'approved', by.holder, by.name ?? null, now, now, scope, id, now],
      );
      if (taken === 0) return false;
      if (request.change) await writeChange(sql, scope, request.change, { holder: request.requester, ...(request.requester_name ? { name: request.requester_name } : {}), kind: request.requester_kind }, now, by);
      return true;
    });
  }

  /** Denies a pending request, with the reason; the requester's waiting command reports it. */
  deny(id: string, by: Actor, reason: string, now: number): Promise<Decided> {
    return this.decide(id, now, async (sql, scope) => {
      const taken = await sql.run(
        `UPDATE payctl_requests SET state = 'denied', decided_by = ?, decided_by_name = ?, decided_at = ?, reason = ?, updated_at = ? WHERE scope = ? AND id = ? AND state = 'pending' AND expires_at > ?`,
        [by.holder, by.name ?? null, now, reason, now, scope, id, now],
      );
      return taken > 0;
    });
  }

  /** What became of an approved move once sent: sent (with the intent that sent it), or failed (why). */
  settle(id: string, state: 'sent' | 'failed', fields: { reason?: string; intent_id?: number }, now: number): Promise<void> {
    return this.store.transact(async (sql, scope) => {
      await sql.run(`UPDATE payctl_requests SET state = ?, reason = ?, intent_id = ?, updated_at = ? WHERE scope = ? AND id = ? AND state = 'approved'`, [
        state,
        fields.reason ?? null,
        fields.intent_id ?? null,
        now,
        scope,
        id,
      ]);
    });
  }

  /**
   * What counts toward a daily limit: cents in intents of these operations since `since` (ms,
   * the ledger's clock) that sent money or may have (pending, applied, unknown), by one operator
   * or by all.
   */
  sentSince(intentOperations: readonly string[], since: number, by: { holder?: string | undefined; session?: string | undefined; agentsOnly?: boolean | undefined } = {}): Promise<number> {
    if (intentOperations.length === 0) return Promise.resolve(0);
    const { holder, session, agentsOnly } = by;
    return this.store.transact(async (sql, scope) => {
      const params: SqlParam[] = [scope, since, ...intentOperations];
      if (holder !== undefined) params.push(holder);
      if (session !== undefined) params.push(session);
      const [row] = await sql.all(
        `SELECT coalesce(sum(amount_cents), 0) AS cents FROM payctl_intents WHERE scope = ? AND created_at >= ? AND state IN ('pending', 'applied', 'unknown')
         AND operation IN (${placeholders(intentOperations)})${holder !== undefined ? ' AND holder = ?' : ''}${session !== undefined ? ' AND session = ?' : ''}${agentsOnly ? ' AND agent IS NOT NULL' : ''}`,
        params,
      );
      return Number(row?.cents ?? 0);
    });
  }

  private decide(id: string, now: number, take: (sql: LedgerSql, scope: string, request: ApprovalRequest) => Promise<boolean>): Promise<Decided> {
    return this.store.transact(async (sql, scope) => {
      const read = async () => {
        const [row] = await sql.all('SELECT * FROM payctl_requests WHERE scope = ? AND id = ?', [scope, id]);
        return row && requestFromRow(row, now);
      };
      const request = await read();
      if (!request) throw new RequestNotFound(id);
      const ok = await take(sql, scope, request);
      return { ok, request: (await read()) as ApprovalRequest };
    });
  }
}

/** No request of this id in this account's ledger: exit 5. */
export class RequestNotFound extends CliError {
  constructor(readonly id: string) {
    super(`no approval request ${id} in this account's ledger (payctl approvals list shows them)`, ExitCode.notFound);
  }
}
