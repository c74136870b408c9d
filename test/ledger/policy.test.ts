import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/ledger/actor.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { describeRule, judgeChange, judgeMove } from '../../src/ledger/policy/judge.js';
import type { Rule, RuleSpec } from '../../src/ledger/policy/types.js';
import { PostgresStore } from '../../src/ledger/postgres-store.js';
import { SqliteStore, sqliteLedgerPath } from '../../src/ledger/sqlite-store.js';
import type { LedgerStore } from '../../src/ledger/types.js';
import { freshDatabase, postgresForFile } from '../helpers/postgres.js';

// The team's rules and approval requests: what the rules say about a move or a change (pure), and
// the book that keeps them in the ledger, on both of its stores.

const ana: Actor = { holder: 'ana@caixa-1', name: 'Ana Souza', kind: 'person' };
const bruno: Actor = { holder: 'bruno@caixa-2', kind: 'person' };
const spec = (over: Partial<RuleSpec>): RuleSpec => ({ operation: 'refund', actor: 'any', kind: 'above', amount_cents: 50_000, per: null, expires_hours: null, confirm_up_to_cents: null, ...over });
const rule = (over: Partial<RuleSpec> & { id?: string }): Rule => ({
  ...spec(over),
  id: over.id ?? 'rule_aaaaaaaa',
  state: 'active',
  set_by: 'ana@caixa-1',
  set_by_name: null,
  set_at: 0,
  approved_by: null,
  approved_by_name: null,
  approved_at: null,
  removed_by: null,
  removed_by_name: null,
  removed_at: null,
});

describe('what the rules say', () => {
  it('a move above the amount goes to approval; at the amount it is sent; a block wins; limits come with a send', () => {
    const above = rule({ amount_cents: 50_000, expires_hours: 2 });
    expect(judgeMove([above], { operation: 'refund', amountCents: 50_001 }, ana)).toMatchObject({ kind: 'approval', rule: above, expiresMs: 7_200_000 });
    expect(judgeMove([above], { operation: 'refund', amountCents: 50_000 }, ana)).toEqual({ kind: 'send', limits: [] });
    expect(judgeMove([above], { operation: 'capture', amountCents: 90_000 }, ana)).toEqual({ kind: 'send', limits: [] });
    const block = rule({ id: 'rule_b', kind: 'block', actor: 'agent', amount_cents: null });
    expect(judgeMove([above, block], { operation: 'refund', amountCents: 1 }, { holder: 'x@y', kind: 'agent' })).toMatchObject({ kind: 'blocked', rule: block });
    expect(judgeMove([block], { operation: 'refund', amountCents: 1 }, ana)).toEqual({ kind: 'send', limits: [] });
    const team = rule({ id: 'rule_t', kind: 'daily_limit', amount_cents: 100_000, per: 'team' });
    const mine = rule({ id: 'rule_o', kind: 'daily_limit', amount_cents: 20_000, per: 'operator', actor: 'ana@caixa-1' });
    expect(judgeMove([team, mine], { operation: 'refund', amountCents: 100 }, ana)).toEqual({
      kind: 'send',
      limits: [
        { rule: team, capCents: 100_000 },
        { rule: mine, capCents: 20_000, holder: 'ana@caixa-1' },
      ],
    });
    expect(judgeMove([team, mine], { operation: 'refund', amountCents: 100 }, bruno)).toEqual({ kind: 'send', limits: [{ rule: team, capCents: 100_000 }] });
    // A move without an amount cannot be told to be below: every amount rule catches it.
    expect(judgeMove([rule({ operation: 'split-change' })], { operation: 'split-change', amountCents: null }, ana).kind).toBe('approval');
  });

  it("an agent's move goes to a person unless a rule lets its client confirm it: the smallest allowance, never past an --above; blocks and its limits hold", () => {
    const agent: Actor = { holder: 'ana@caixa-1', kind: 'agent', client: 'claude-code' };
    const move = (amountCents: number | null) => ({ operation: 'refund' as const, amountCents });
    // No rule: every move by an agent waits for a person (no rule named), a person's goes.
    expect(judgeMove([], move(100), agent)).toEqual({ kind: 'approval', rule: null, expiresMs: 86_400_000, limits: [] });
    expect(judgeMove([], move(100), ana)).toEqual({ kind: 'send', limits: [] });
    // `--actor agent --confirm-at-client-up-to 50` (an --above at 50 confirmed up to it).
    const confirm = rule({ id: 'rule_c', actor: 'agent', kind: 'above', amount_cents: 5_000, confirm_up_to_cents: 5_000, expires_hours: 2 });
    expect(judgeMove([confirm], move(5_000), agent)).toEqual({ kind: 'confirm', rule: confirm, limits: [], expiresMs: 7_200_000 });
    expect(judgeMove([confirm], move(5_001), agent)).toMatchObject({ kind: 'approval', rule: confirm, expiresMs: 7_200_000 });
    // A move without an amount cannot be told to be within it.
    expect(judgeMove([confirm], move(null), agent).kind).toBe('approval');
    expect(judgeMove([confirm], move(9_000), ana)).toEqual({ kind: 'send', limits: [] });
    // An --above alone lets an agent do nothing on its own; a lower --above for anyone still catches it.
    const aboveAgents = rule({ id: 'rule_a', actor: 'agent', amount_cents: 20_000 });
    expect(judgeMove([aboveAgents], move(100), agent)).toMatchObject({ kind: 'approval', rule: aboveAgents });
    const anyone = rule({ id: 'rule_any', amount_cents: 3_000 });
    expect(judgeMove([confirm, anyone], move(4_000), agent)).toMatchObject({ kind: 'approval', rule: anyone });
    // Two allowances: the smaller one holds.
    const limited = rule({ id: 'rule_l', actor: 'agent', kind: 'daily_limit', per: 'team', amount_cents: 10_000, confirm_up_to_cents: 2_000 });
    expect(judgeMove([confirm, limited], move(3_000), agent)).toMatchObject({ kind: 'approval', rule: limited, limits: [{ rule: limited, capCents: 10_000, agentsOnly: true }] });
    expect(judgeMove([confirm, limited], move(2_000), agent)).toEqual({ kind: 'confirm', rule: limited, limits: [{ rule: limited, capCents: 10_000, agentsOnly: true }], expiresMs: 7_200_000 });
    // An agents' daily limit per operator counts that operator's agents; a block wins over everything.
    const mine = rule({ id: 'rule_m', actor: 'agent', kind: 'daily_limit', per: 'operator', amount_cents: 10_000 });
    expect(judgeMove([mine], move(100), agent)).toMatchObject({ kind: 'approval', rule: null, limits: [{ rule: mine, holder: 'ana@caixa-1', agentsOnly: true }] });
    const block = rule({ id: 'rule_b', actor: 'agent', kind: 'block', amount_cents: null });
    expect(judgeMove([confirm, limited, block], move(100), agent)).toEqual({ kind: 'blocked', rule: block });
    // Per session: one payctl mcp session's; an agent's shell has none, so its operator's agents'.
    const session = rule({ id: 'rule_s', actor: 'agent', kind: 'daily_limit', per: 'session', amount_cents: 3_000 });
    expect(judgeMove([session], move(100), { ...agent, session: 'mcp_1' })).toMatchObject({ limits: [{ rule: session, capCents: 3_000, session: 'mcp_1', agentsOnly: true }] });
    expect(judgeMove([session], move(100), { holder: 'ana@caixa-1', kind: 'agent' })).toMatchObject({ limits: [{ rule: session, holder: 'ana@caixa-1', agentsOnly: true }] });
    expect(describeRule(session)).toBe('refunds by AI agents: at most R$ 30,00 a day in each payctl mcp session');
  });

  it('removing, raising and letting agents confirm loosen; a new or lower rule tightens; with no rule, everything applies at once', () => {
    const above = rule({ amount_cents: 50_000 });
    expect(judgeChange([], { action: 'remove', rule: 'rule_x' })).toBe('tightens');
    expect(judgeChange([above], { action: 'remove', rule: above.id })).toBe('loosens');
    expect(judgeChange([above], { action: 'add', rule: spec({ amount_cents: 60_000 }) })).toBe('loosens');
    expect(judgeChange([above], { action: 'add', rule: spec({ amount_cents: 40_000 }) })).toBe('tightens');
    expect(judgeChange([above], { action: 'add', rule: spec({ kind: 'daily_limit', per: 'team', amount_cents: 900_000 }) })).toBe('tightens');
    expect(judgeChange([above], { action: 'add', rule: spec({ actor: 'agent', confirm_up_to_cents: 5_000 }) })).toBe('loosens');
    expect(judgeChange([above], { action: 'add', rule: spec({ expires_hours: 72 }) })).toBe('loosens');
  });

  it('says a rule in words', () => {
    expect(describeRule(spec({}))).toBe('refunds above R$ 500,00 by anyone need approval');
    expect(describeRule(spec({ kind: 'daily_limit', per: 'operator', amount_cents: 200_000, actor: 'script' }))).toBe('refunds by scripts (prompts off): at most R$ 2.000,00 a day for each operator');
    expect(describeRule(spec({ kind: 'block', actor: 'agent', operation: 'capture', amount_cents: null }))).toBe('captures by AI agents are blocked');
  });
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'payctl-policy-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const postgres = postgresForFile();
const SCOPE = 'test:marketplace:m1';
const same = (text: string) => text;

const BACKENDS: Array<{ name: string; database(): Promise<(scope: string) => Promise<LedgerStore>> }> = [
  { name: 'SQLite', database: async () => (scope) => SqliteStore.open(sqliteLedgerPath(dir), scope, same) },
  {
    name: 'PostgreSQL',
    database: async () => {
      const url = await freshDatabase(postgres());
      return (scope) => PostgresStore.open(url, 'the test database', scope, same);
    },
  },
];

describe.each(BACKENDS)('the policy book on $name', (backend) => {
  const ledgers: Ledger[] = [];
  let openStore: (scope: string) => Promise<LedgerStore>;
  beforeEach(async () => {
    openStore = await backend.database();
  });
  const open = async (scope = SCOPE) => {
    const ledger = new Ledger(await openStore(scope));
    ledgers.push(ledger);
    return ledger;
  };
  afterEach(async () => {
    for (const ledger of ledgers.splice(0)) await ledger.close().catch(() => undefined);
  });

  it('keeps rules for the account: added, replaced, removed, with who did it; another account sees none', async () => {
    const book = (await open()).policy;
    const first = await book.applyChange({ action: 'add', rule: spec({}) }, ana, 1000);
    expect(first).toMatchObject({ id: expect.stringMatching(/^rule_[a-z2-9]{8}$/), set_by: 'ana@caixa-1', set_by_name: 'Ana Souza', set_at: 1000, state: 'active', amount_cents: 50_000 });
    const lower = await book.applyChange({ action: 'add', rule: spec({ amount_cents: 30_000 }), replaces: first!.id }, bruno, 2000);
    expect((await book.rules()).map((r) => [r.id, r.amount_cents])).toEqual([[lower!.id, 30_000]]);
    expect((await book.rules({ removed: true })).map((r) => [r.amount_cents, r.state, r.removed_by])).toEqual([
      [50_000, 'removed', 'bruno@caixa-2'],
      [30_000, 'active', null],
    ]);
    expect(await (await open('test:marketplace:other')).policy.rules({ removed: true })).toEqual([]);
  });

  it('a request is decided once: of two approvers at once one takes it; denied or expired ones cannot be approved', async () => {
    const [one, two] = [(await open()).policy, (await open()).policy];
    const request = await one.createRequest(
      { operation: 'refund', key: 'transaction:t1', target: 't1', amount_cents: 60_000, currency: 'BRL', summary: 'Refund R$ 600,00 of transaction t1', replay: ['transactions', 'refund', 't1', '--amount-cents', '60000'], expires_at: 10_000 },
      ana,
      1000,
    );
    expect(request).toMatchObject({ id: expect.stringMatching(/^apr_/), state: 'pending', requester: 'ana@caixa-1', requester_name: 'Ana Souza', requester_kind: 'person', replay: ['transactions', 'refund', 't1', '--amount-cents', '60000'] });
    const decided = await Promise.all([one.approve(request.id, bruno, 2000), two.approve(request.id, { holder: 'carla@caixa-3', kind: 'person' }, 2000)]);
    expect(decided.filter((d) => d.ok)).toHaveLength(1);
    expect(decided.map((d) => d.request.state)).toEqual(['approved', 'approved']);
    const winner = decided.find((d) => d.ok)!.request.decided_by;
    expect((await two.request(request.id, 3000))?.decided_by).toBe(winner);
    await one.settle(request.id, 'sent', { intent_id: 7 }, 3000);
    expect(await one.request(request.id, 3000)).toMatchObject({ state: 'sent', intent_id: 7 });

    const denied = await one.createRequest({ operation: 'refund', summary: 'x', expires_at: 10_000 }, ana, 1100);
    expect(await one.deny(denied.id, bruno, 'customer asked to keep it', 2000)).toMatchObject({ ok: true, request: { state: 'denied', reason: 'customer asked to keep it', decided_by: 'bruno@caixa-2' } });
    expect((await one.approve(denied.id, bruno, 2500)).ok).toBe(false);

    const late = await one.createRequest({ operation: 'refund', summary: 'y', expires_at: 5_000 }, ana, 1200);
    expect((await one.request(late.id, 5_000))?.state).toBe('expired');
    expect(await one.approve(late.id, bruno, 5_000)).toMatchObject({ ok: false, request: { state: 'expired' } });
    expect((await one.requests({ states: ['expired'], limit: 10 }, 6_000)).map((r) => r.id)).toEqual([late.id]);
    expect((await one.requests({ limit: 10 }, 6_000)).map((r) => r.state)).toEqual(['expired', 'denied', 'sent']);
  });

  it('an approved change of the rules lands with its approval', async () => {
    const book = (await open()).policy;
    const above = await book.applyChange({ action: 'add', rule: spec({}) }, ana, 1000);
    const change = await book.createRequest({ operation: 'policy', summary: `remove: ${describeRule(above!)}`, change: { action: 'remove', rule: above!.id }, expires_at: 99_000 }, ana, 2000);
    expect((await book.rules()).map((r) => r.id)).toEqual([above!.id]);
    expect(await book.approve(change.id, bruno, 3000)).toMatchObject({ ok: true, request: { state: 'sent', decided_by: 'bruno@caixa-2' } });
    expect(await book.rules()).toEqual([]);
    expect(await book.rule(above!.id)).toMatchObject({ state: 'removed', removed_by: 'ana@caixa-1', removed_at: 3000 });
  });

  it('counts what was sent since a moment, by operation and operator, from the intents that may have moved money', async () => {
    const ledger = await open();
    const me = ledger.me.holder;
    for (const [operation, cents, state] of [
      ['transactions.void', 1000, 'applied'],
      ['transactions.void', 2000, 'pending'],
      ['transactions.void', 4000, 'refused'],
      ['transactions.capture', 8000, 'applied'],
    ] as const) {
      await ledger.record({ key: `transaction:${cents}`, operation, target: String(cents), amount_cents: cents, state });
    }
    expect(await ledger.policy.sentSince(['transactions.void'], 0)).toBe(3000);
    expect(await ledger.policy.sentSince(['transactions.void'], 0, { holder: me })).toBe(3000);
    expect(await ledger.policy.sentSince(['transactions.void'], 0, { holder: 'someone@else' })).toBe(0);
    expect(await ledger.policy.sentSince(['transactions.void'], ledger.now() + 60_000)).toBe(0);
    expect(await ledger.policy.sentSince(['transactions.void'], 0, { agentsOnly: true })).toBe(0);
  });

  it("records the agent that wrote an intent or asked for a request, and counts what agents sent apart", async () => {
    const ledger = await open();
    const agentLedger = new Ledger(await openStore(SCOPE), undefined, { ...ledger.me, agent: 'claude-code' });
    ledgers.push(agentLedger);
    await ledger.record({ key: 'transaction:a', operation: 'transactions.void', target: 'a', amount_cents: 1000, state: 'applied' });
    const byAgent = await agentLedger.record({ key: 'transaction:b', operation: 'transactions.void', target: 'b', amount_cents: 2000, state: 'applied' });
    expect(byAgent.agent).toBe('claude-code');
    expect(await ledger.policy.sentSince(['transactions.void'], 0)).toBe(3000);
    expect(await ledger.policy.sentSince(['transactions.void'], 0, { agentsOnly: true })).toBe(2000);
    expect(await ledger.policy.sentSince(['transactions.void'], 0, { holder: ledger.me.holder, agentsOnly: true })).toBe(2000);
    const request = await ledger.policy.createRequest({ operation: 'refund', summary: 'x', expires_at: 10_000 }, { holder: 'ana@caixa-1', kind: 'agent', client: 'claude-code' }, 1000);
    expect(request).toMatchObject({ requester_kind: 'agent', requester_agent: 'claude-code' });
    expect((await ledger.policy.createRequest({ operation: 'refund', summary: 'y', expires_at: 10_000 }, { holder: 'ana@caixa-1', kind: 'agent', signal: 'CLAUDECODE is set' }, 1000)).requester_agent).toBe('shell: CLAUDECODE is set');
    expect((await ledger.policy.createRequest({ operation: 'refund', summary: 'z', expires_at: 10_000 }, ana, 1000)).requester_agent).toBeNull();
  });
});
