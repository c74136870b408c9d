// The event ids a receiver has already taken, so one delivered again (a retry whose answer was lost,
// an `events replay`, or a captured delivery posted again within the signature's tolerance) is
// acknowledged without being acted on twice. Bounded: the oldest ids are forgotten first, so a
// receiver left running for days holds at most `capacity` of them; an id older than that would
// also carry a signature timestamp long past the tolerance.

export const SEEN_EVENTS_CAPACITY = 5_000;

export interface SeenEvents {
  /** True the first time an id is offered (and remembers it); false for every time after. */
  firstTime(id: string): boolean;
}

export function seenEvents(capacity = SEEN_EVENTS_CAPACITY): SeenEvents {
  // A Set iterates in insertion order: its first entry is the oldest.
  const ids = new Set<string>();
  return {
    firstTime(id) {
      if (ids.has(id)) return false;
      ids.add(id);
      if (ids.size > capacity) ids.delete(ids.values().next().value as string);
      return true;
    },
  };
}
