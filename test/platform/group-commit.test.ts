import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/platform/group-commit.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('commits the writes asked for in one turn of the event loop as one group, in order, at most maxGroup at a time', async () => {
    const groups: number[][] = [];
    const queue = new GroupCommit<number>((group) => {
      groups.push(group);
      return () => undefined;
    }, 3);
    for (const n of [1, 2, 3, 4, 5]) queue.add(n);
    expect(groups).toEqual([]);
    await queue.drain();
    expect(groups).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('writes that arrive while a group is committing wait for the next group; a write that waits is joined by later ones', async () => {
    const groups: string[][] = [];
    let finish: () => void = () => undefined;
    const queue = new GroupCommit<string>(async (group) => {
      groups.push(group);
      if (group[0] === 'first') await new Promise<void>((resolve) => (finish = resolve));
      return () => undefined;
    });
    queue.add('first');
    await turn();
    queue.add('second', 50);
    queue.add('third', 50);
    expect(groups).toEqual([['first']]);
    finish();
    await queue.drain();
    expect(groups).toEqual([['first'], ['second', 'third']]);
  });

  it('answers the writers of a group only once the queue is free, so a writer that writes again starts a new group', async () => {
    const groups: string[][] = [];
    const queue: GroupCommit<string> = new GroupCommit((group) => {
      groups.push(group);
      return () => {
        if (group[0] === 'a') queue.add('b', 1_000);
      };
    });
    queue.add('a');
    for (let i = 0; i < 3; i += 1) await turn();
    // 'b' waits its own time for company: not committed in the next turn as a leftover would be.
    expect(groups).toEqual([['a']]);
    await queue.drain();
    expect(groups).toEqual([['a'], ['b']]);
  });
});
