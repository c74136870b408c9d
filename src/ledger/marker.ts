// Which ledgers this machine has kept money moves in, and which one each was: a file in the state
// directory, outside the ledger's own (ledgers.json). A ledger deleted, emptied, damaged or made
// anew in its place is noticed from here, so money does not move again as if nothing had been
// done before (the moves it recorded are what stop a rerun from repeating them).
import { randomUUID } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';

export interface KnownLedger {
  /** The ledger's own id (payctl_meta), made with its tables. */
  id: string;
  /** Since when (ms) it keeps money moves. */
  since: number;
}

export function markerPath(stateDir: string): string {
  return path.join(stateDir, 'ledgers.json');
}

/** Every ledger this machine has used, by where it is (a path, or a URL with its password masked). */
export function knownLedgers(stateDir: string): Record<string, KnownLedger> {
  const file = markerPath(stateDir);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(`${file} (which ledgers this machine keeps money moves in) cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); nothing was sent`);
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, KnownLedger>;
  } catch {
    // said below
  }
  throw new UsageError(`${file} (which ledgers this machine keeps money moves in) is damaged; nothing was sent. If the ledger itself is sound ('payctl ledger check'), delete ${file}: it is written again`);
}

/** Records the ledger at `where` (best effort: a state directory that cannot be written is said elsewhere). */
export function rememberLedger(stateDir: string, where: string, ledger: KnownLedger): void {
  const file = markerPath(stateDir);
  const temporary = `${file}.tmp-${randomUUID().slice(0, 8)}`;
  try {
    const all = { ...knownLedgers(stateDir), [where]: ledger };
    writeFileSync(temporary, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    rmSync(temporary, { force: true });
  }
}
