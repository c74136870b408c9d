import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { trackChanges } from '../../src/sandbox/change-tracking.js';
import { mutateState, readState, readStateFiles, statePaths, storeLimits } from '../../src/sandbox/store.js';
import type { SandboxState } from '../../src/sandbox/types.js';

// The store writes only what a mutation changed (found by change-tracking.ts), and any process
// reading the files afresh gets exactly the state the writer holds in memory.

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});
const limit = storeLimits.compactMinBytes;
afterEach(() => {
  storeLimits.compactMinBytes = limit;
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'payctl-store-'));
  dirs.push(dir);
  return dir;
}

const clock = () => new Date('2030-01-01T00:00:00.000Z');

describe('change tracking', () => {
  it('names the items written at any depth, and whole values for singletons and shrunk arrays', () => {
    const raw = {
      buyers: { a: { name: 'A', address: { city: 'X' } }, b: { name: 'B' } },
      list: [{ v: 1 }, { v: 2 }],
      shrunk: [{ v: 1 }, { v: 2 }],
      clock: { offset_seconds: 0 },
      untouched: { c: { v: 1 } },
    };
    const tracker = trackChanges(raw);
    const s = tracker.state;
    s.buyers.a!.address.city = 'Y';
    delete (s.buyers as Record<string, unknown>).b;
    s.list.push({ v: 3 });
    s.list[0]!.v = 10;
    s.shrunk.pop();
    s.clock.offset_seconds = 5;
    void s.untouched.c!.v; // a read is not a change
    expect(tracker.changed().map((u) => u.join('/')).sort()).toEqual(['buyers/a', 'buyers/b', 'clock', 'list/0', 'list/2', 'shrunk']);
    expect(raw.buyers.a.address.city).toBe('Y');
  });

  it('gives the same proxy for the same object, and stores plain objects, never proxies', () => {
    const raw = { items: { a: { tags: ['x'] } }, other: { b: { copy: null as unknown } } };
    const tracker = trackChanges(raw);
    expect(tracker.state.items.a).toBe(tracker.state.items.a);
    tracker.state.other.b!.copy = tracker.state.items.a;
    expect(raw.other.b.copy).toBe(raw.items.a);
    expect(tracker.unwrap(tracker.state.items.a)).toBe(raw.items.a);
  });
});

describe('the files', () => {
  it('a reader starting afresh sees what the writer holds, change after change', async () => {
    const dir = await tempDir();
    for (let i = 0; i < 5; i += 1) {
      await mutateState(dir, clock, (state) => {
        state.counters.seq += 1;
        state.deliveries.push({ kind: 'receipt', resource_id: `r${i}`, method: 'email', target: 'a@example.com', at: clock().toISOString() });
      });
    }
    const inMemory = await readState(dir, clock);
    expect(inMemory.deliveries.map((d) => d.resource_id)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4']);
    expect(await readStateFiles(dir)).toEqual(JSON.parse(JSON.stringify(inMemory)));
  });

  it('a change that throws half way is put back: items changed, added and removed', async () => {
    const dir = await tempDir();
    const before = structuredClone(await readState(dir, clock));
    const buyerId = Object.keys(before.buyers)[0] as string;
    await expect(
      mutateState(dir, clock, (state) => {
        (state.buyers[buyerId] as { first_name: string }).first_name = 'Changed';
        delete state.cards[Object.keys(state.cards)[0] as string];
        state.deliveries.push({ kind: 'receipt', resource_id: 'x', method: 'email', target: 'a@example.com', at: clock().toISOString() });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(JSON.parse(JSON.stringify(await readState(dir, clock)))).toEqual(JSON.parse(JSON.stringify(before)));
  });

  it('a change that throws writes nothing and leaves no half-change in memory', async () => {
    const dir = await tempDir();
    const before = structuredClone(await readState(dir, clock));
    await expect(
      mutateState(dir, clock, (state) => {
        state.counters.seq = 999;
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect((await readState(dir, clock)).counters.seq).toBe(before.counters.seq);
  });

  it('folds a log that outgrew its snapshot into a new one, losing nothing', async () => {
    const dir = await tempDir();
    storeLimits.compactMinBytes = 2_000;
    const names = async () => (await readdir(statePaths(dir).dir)).filter((n) => n.endsWith('.ndjson')).sort();
    const generation = async () => JSON.parse((await readFile(statePaths(dir).file, 'utf8')).split('\n')[0] as string).generation as string;
    await readState(dir, clock);
    const first = await generation();
    for (let i = 0; i < 60; i += 1) {
      await mutateState(dir, clock, (state) => {
        state.deliveries.push({ kind: 'boleto', resource_id: `b${i}`, method: 'email', target: 'x'.repeat(100), at: clock().toISOString() });
      });
    }
    // A new generation, and no log but (at most) the new generation's.
    const now = await generation();
    expect(now).not.toBe(first);
    expect((await names()).filter((n) => n.startsWith('changes-') && n !== `changes-${now}.ndjson`)).toEqual([]);
    const fromFiles = (await readStateFiles(dir)) as SandboxState;
    expect(fromFiles.deliveries.map((d) => d.resource_id)).toEqual(Array.from({ length: 60 }, (_, i) => `b${i}`));
  });
});
