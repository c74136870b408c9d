import { rm } from 'node:fs/promises';
import path from 'node:path';
import { type AnswerWriters, GroupCommit } from '../platform/group-commit.js';
import { sandboxDir } from './paths.js';
import { closeSandboxDb, DB_NAME, openSandboxDb, type SandboxDb } from './db/database.js';
import { Log, Records } from './db/records.js';
import { Session, VALUES } from './db/session.js';
import { recordEvents } from './events.js';
import { seedState } from './seed.js';
import type { SandboxState, StoredState } from './types.js';

// The sandbox's state: one SQLite database per state directory (db/). A change is one write
// transaction: the handler reads records through the repositories of a session (db/records.ts)
// and changes them as plain objects; the session tells which differ from what was read, their
// events are added (events.ts), and those rows are saved before the transaction commits. A
// handler that throws leaves nothing behind: the transaction rolls back.

/**
 * The time, for seeding. The sandbox clock (clock.ts) also adopts the clock offset of every state
 * loaded here, so a request always runs on the sandbox time of the state it is looking at.
 */
export type StoreClock = (() => Date) & { adopt?: (state: SandboxState) => void };

export interface StatePaths {
  dir: string;
  /** The database. */
  file: string;
}

export function statePaths(stateDir: string): StatePaths {
  const dir = sandboxDir(stateDir);
  return { dir, file: path.join(dir, DB_NAME) };
}

function seeded(db: SandboxDb): boolean {
  return db.metaText('seller') !== undefined;
}

/** Inside a write transaction: a database without a state is seeded afresh. */
function seedIfNew(db: SandboxDb, now: StoreClock): void {
  if (!seeded(db)) new Session(db).replaceAll(seedState(now()));
}

const LOGS = ['transactions', 'receivables', 'deliveries', 'balance_entries', 'transfers', 'events'];
const RECORDS = ['sellers', 'buyers', 'cards', 'tokens', 'sources', 'plans', 'subscriptions', 'invoices', 'accounts', 'webhooks', 'replays'];

/** The top-level values, read and set through the session of the state they are asked of. */
const valuesOfSession: object = Object.create(
  null,
  Object.fromEntries(
    VALUES.map((name) => [
      name,
      {
        enumerable: true,
        get(this: { session: Session }) {
          return this.session.value(name);
        },
        set(this: { session: Session }, value: unknown) {
          this.session.setValue(name, value);
        },
      },
    ]),
  ),
);

/** The sandbox as a handler sees it through `session`: its top-level values and its repositories. */
export function stateOf(session: Session): SandboxState {
  const state = Object.create(valuesOfSession) as Record<string, unknown>;
  state.session = session;
  for (const name of LOGS) state[name] = new Log(session, name);
  for (const name of RECORDS) state[name] = new Records(session, name);
  return state as unknown as SandboxState;
}

interface QueuedChange {
  now: StoreClock;
  run: (session: Session) => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** Changes committed together at most: bounds how long the first of them waits for its answer. */
const MAX_GROUP = 64;

const queues = new WeakMap<SandboxDb, GroupCommit<QueuedChange>>();

/**
 * The changes queued for `db`, committed as groups (platform/group-commit.ts): each change in a
 * savepoint of its own (one that throws is undone alone and answers its error), all in one write
 * transaction.
 */
function queueOf(db: SandboxDb): GroupCommit<QueuedChange> {
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = new GroupCommit((group) => commitGroup(db, group), MAX_GROUP)));
  return queue;
}

function commitGroup(db: SandboxDb, group: QueuedChange[]): AnswerWriters {
  const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
  try {
    db.write(() => {
      const first = group[0] as QueuedChange;
      seedIfNew(db, first.now);
      for (const change of group) {
        try {
          outcomes.push({ ok: true, value: db.savepoint(() => change.run(new Session(db, true))) });
        } catch (error) {
          outcomes.push({ ok: false, error });
        }
      }
    });
  } catch (error) {
    return () => {
      for (const change of group) change.reject(error);
    };
  }
  return () =>
    group.forEach((change, i) => {
      const outcome = outcomes[i] as (typeof outcomes)[number];
      if (outcome.ok) change.resolve(outcome.value);
      else change.reject(outcome.error);
    });
}

/**
 * Runs `mutate` on the current state and saves what it changed, with the events of those
 * changes, committed before the promise settles. If `mutate` throws, nothing of it is written.
 * Whatever else arrives before the event loop comes round is committed with it.
 */
export async function mutateState<T>(stateDir: string, now: StoreClock, mutate: (state: SandboxState) => T): Promise<T> {
  const db = await openSandboxDb(stateDir);
  return new Promise<T>((resolve, reject) => {
    queueOf(db).add({ now, run: (session) => applyChange(session, now, mutate), resolve: resolve as (value: unknown) => void, reject });
  });
}

/**
 * One change inside an open write transaction: `mutate` on the tracked state, then its rows and
 * events written. `events: false` is for generated volume, which makes none (docs/sandbox.md).
 */
export function applyChange<T>(session: Session, now: StoreClock, mutate: (state: SandboxState) => T, { events = true } = {}): T {
  const state = stateOf(session);
  now.adopt?.(state);
  const result = mutate(state);
  // Every change of a transaction, buyer, plan, subscription or invoice is also an event (events.ts).
  const changes = session.changes();
  if (events) changes.push(...recordEvents(state, changes, now()));
  session.write(changes);
  return result;
}

/**
 * Runs `step` again and again, each time in a write transaction of its own, until it says it is
 * done: for work too large for one transaction (generating a volume of sales). Between steps the
 * event loop runs, so the server answers other requests and a signal is heard.
 */
export async function mutateInSteps<T>(stateDir: string, now: StoreClock, step: (session: Session) => T | undefined): Promise<T> {
  await mutateState(stateDir, now, () => undefined);
  const db = await openSandboxDb(stateDir);
  return db.largeCache(async () => {
    for (;;) {
      const result = db.write(() => step(new Session(db, true)));
      if (result !== undefined) return result;
      await new Promise((resolve) => setImmediate(resolve));
    }
  });
}

/**
 * Packs the state's database into full pages (SandboxDb.compact): after a change that wrote a great
 * deal. With the usual cache: the larger one packed 100,000 sales in 2.4 s instead of 3.5, but
 * raised `sandbox generate`'s peak memory from 220 to 300 MB.
 */
export async function compactState(stateDir: string): Promise<void> {
  (await openSandboxDb(stateDir)).compact();
}

/** Lets go of what this process holds open for a state directory (a sandbox server closing). */
export async function releaseState(stateDir: string): Promise<void> {
  await closeSandboxDb(stateDir);
}

/**
 * The current state, for reading: records load as the caller looks at them, all from one
 * snapshot of the database until the caller's synchronous code ends. Never change it.
 */
export async function readState(stateDir: string, now: StoreClock): Promise<SandboxState> {
  const db = await openSandboxDb(stateDir);
  if (!seeded(db)) await mutateState(stateDir, now, () => undefined);
  const state = stateOf(new Session(db));
  now.adopt?.(state);
  return state;
}

/** Replaces the whole state: for tests that need a state no request can produce. */
export async function replaceState(stateDir: string, state: StoredState): Promise<void> {
  const db = await openSandboxDb(stateDir);
  db.write(() => new Session(db).replaceAll(state));
}

/**
 * Empties the state; the next request seeds afresh. The database itself stays (other processes
 * may have it open) unless it cannot be opened at all, which is what a reset is for too.
 */
export async function wipeState(stateDir: string): Promise<void> {
  const dir = sandboxDir(stateDir);
  try {
    const db = await openSandboxDb(stateDir);
    db.write(() => new Session(db).replaceAll({} as StoredState));
  } catch {
    await closeSandboxDb(stateDir);
    for (const name of [DB_NAME, `${DB_NAME}-wal`, `${DB_NAME}-shm`]) await rm(path.join(dir, name), { force: true });
  }
}

/** The whole state as stored, read afresh: for tests and tools, never for a request. */
export async function readStateFiles(stateDir: string): Promise<StoredState | undefined> {
  const db = await openSandboxDb(stateDir);
  if (!seeded(db)) return undefined;
  return db.write(() => new Session(db).exportAll() as unknown as StoredState);
}
