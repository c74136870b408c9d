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

export function interruptionNote(): string | undefined {
  return inFlightNote;
}
