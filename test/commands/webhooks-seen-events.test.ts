import { describe, expect, it } from 'vitest';
import { SEEN_EVENTS_CAPACITY, seenEvents } from '../../src/commands/webhooks/seen-events.js';

// What `webhooks listen` remembers to take each event once: bounded, oldest forgotten first.
describe('seen events', () => {
  it('takes an id once, and holds at most its capacity, forgetting the oldest first', () => {
    const seen = seenEvents(3);
    expect(['a', 'b', 'a', 'c', 'b'].map((id) => seen.firstTime(id))).toEqual([true, true, false, true, false]);
    expect(seen.firstTime('d')).toBe(true); // a is forgotten to make room
    expect(seen.firstTime('b')).toBe(false);
    expect(seen.firstTime('a')).toBe(true); // b, the oldest now, is forgotten
    expect(seen.firstTime('c')).toBe(false);
    expect(seen.firstTime('b')).toBe(true);
  });

  it('remembers a few thousand by default', () => {
    const seen = seenEvents();
    for (let i = 0; i < SEEN_EVENTS_CAPACITY; i += 1) seen.firstTime(`e${i}`);
    expect(seen.firstTime('e0')).toBe(false);
    expect(seen.firstTime(`e${SEEN_EVENTS_CAPACITY - 1}`)).toBe(false);
    expect(SEEN_EVENTS_CAPACITY).toBe(5_000);
  });
});
