// What Ctrl-C should tell the user beyond "cancelled": while a money move is in flight, that it
// may or may not have happened and how to find out. Set by the ledger's protocol around each
// send; read by the SIGINT handler in main.ts. No imports: main.ts loads it on every run.

let inFlightNote: string | undefined;

/** Runs `work` with `note` as what an interruption must say, until it settles either way. */
export async function noteWhileInFlight<T>(note: string, work: () => Promise<T>): Promise<T> {
  const outer = inFlightNote;
  inFlightNote = note;
  try {
    return await work();
  } finally {
    inFlightNote = outer;
  }
}

/**
 * Sets `note` as what an interruption must say from now until the returned function is called
 * (for work whose end is not one promise: an export's writing, up to its file taking its name).
 */
export function noteUntil(note: string): () => void {
  const outer = inFlightNote;
  inFlightNote = note;
  let done = false;
  return () => {
    if (!done) inFlightNote = outer;
    done = true;
  };
}

export function interruptionNote(): string | undefined {
  return inFlightNote;
}

let ownHandlers = 0;

/**
 * For a command that stops cleanly on Ctrl-C itself (`sandbox serve`, `webhooks listen`): until the
 * returned function is called, main.ts leaves SIGINT to it. Said explicitly rather than read from
 * the number of SIGINT listeners, because libraries register their own (exit hooks such as
 * signal-exit's), and counting those would make Ctrl-C do nothing at all.
 */
export function handleInterruptsHere(): () => void {
  ownHandlers += 1;
  let released = false;
  return () => {
    if (!released) ownHandlers -= 1;
    released = true;
  };
}

export function interruptsHandledElsewhere(): boolean {
  return ownHandlers > 0;
}

const stoppers = new Set<(boundMs: number) => void>();

/**
 * Something to stop before the process exits on a signal or a closed pipe (the embedded sandbox's
 * thread: Node.js can crash when it ends a thread that is in the middle of reading a request).
 * `stop` blocks for at most the time it is given, so that nothing else of the command runs (no
 * request sent, no line written) once the exit has begun. Returns the function that unregisters it.
 */
export function stopBeforeExit(stop: (boundMs: number) => void): () => void {
  stoppers.add(stop);
  return () => stoppers.delete(stop);
}

/** Stops what was registered, taking at most `boundMs` in all: the exit must stay prompt. */
export function stopAllBeforeExit(boundMs: number): void {
  const deadline = Date.now() + boundMs;
  for (const stop of stoppers) stop(Math.max(0, deadline - Date.now()));
}
