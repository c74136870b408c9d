// The state file of `payctl export --state`: where the next run starts, and the fingerprints of
// the records of the lookback window, so that a re-read record is written again only if it
// changed. Written only after the run's output is complete and on the disk (see run.ts).
import { accessSync, constants, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../../errors.js';
import { writeFileAtomically } from './durable.js';

export interface ExportState {
  payctl_export: 1;
  resource: string;
  format: string;
  /** The first run's --since (ISO), which no later run reads before. */
  since: string | null;
  lookback_days: number;
  /** The newest created_at read so far (ISO); null before any record was. */
  cursor: string | null;
  /** [id, created_at, fingerprint] of each record read in the window: from cursor − lookback on, or all for a snapshot. */
  seen: Array<[string, string, string]>;
  runs: number;
  last_run: { finished_at: string; read: number; written: number; out: string } | null;
}

/** A finished run's state, staged beside the state file until its output file is in place. */
interface Staged {
  out: string;
  ino: number;
  size: number;
  state: ExportState;
}

/** A run's new state, its window read out only as it is written (it may hold many records). */
export interface NewState extends Omit<ExportState, 'seen'> {
  seen: () => Iterable<[string, string, string]>;
}

/** The state file's JSON in parts: the window's records a thousand at a time. */
function* stateText(state: NewState): Generator<string> {
  const { seen, ...rest } = state;
  yield `${JSON.stringify(rest).slice(0, -1)},"seen":[`;
  let batch: string[] = [];
  let first = true;
  const flush = () => {
    const text = `${first ? '' : ','}${batch.join(',')}`;
    first = false;
    batch = [];
    return text;
  };
  for (const entry of seen()) {
    batch.push(JSON.stringify(entry));
    if (batch.length === 1000) yield flush();
  }
  if (batch.length > 0) yield flush();
  yield ']}';
}

const stagedPath = (file: string) => `${file}.next`;

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`--state: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--state: ${file} is not a payctl export state file (not JSON)`);
  }
}

function isState(value: unknown): value is ExportState {
  const s = value as Partial<ExportState> | null;
  return (
    typeof s === 'object' &&
    s !== null &&
    s.payctl_export === 1 &&
    typeof s.resource === 'string' &&
    typeof s.format === 'string' &&
    (s.cursor === null || typeof s.cursor === 'string') &&
    (s.since === null || typeof s.since === 'string') &&
    typeof s.lookback_days === 'number' &&
    Array.isArray(s.seen)
  );
}

/** The state is saved beside itself and renamed over it: its directory must be writable, checked before a run starts. */
export function checkStateWritable(file: string): void {
  try {
    accessSync(dirname(file), constants.W_OK);
  } catch (err) {
    throw new UsageError(`--state: cannot write ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** The state a run starts from: undefined when the file does not exist yet (a first run). */
export function readState(file: string, resource: string, format: string): ExportState | undefined {
  const value = readJson(file);
  if (value === undefined) return undefined;
  if (!isState(value)) throw new UsageError(`--state: ${file} is not a payctl export state file`);
  if (value.resource !== resource) {
    throw new UsageError(`--state: ${file} is the state of an export of ${value.resource}, not ${resource}; give each export its own state file`);
  }
  if (value.format !== format) {
    throw new UsageError(`--state: ${file} is the state of a ${value.format} export, not ${format}; give each format its own state file`);
  }
  return value;
}

/**
 * Settles a run that stopped between renaming its output into place and saving its state: if the
 * output file named in the staged state is the very file that run wrote (same inode and size),
 * the run was complete and its state is saved now; otherwise the staged state is dropped and the
 * run counts as never made. Returns the output file of a run settled this way.
 */
export function settleStaged(file: string): string | undefined {
  const staged = readJson(stagedPath(file)) as Staged | undefined;
  if (staged === undefined) return undefined;
  let done = false;
  try {
    const stat = statSync(staged.out);
    done = stat.ino === staged.ino && stat.size === staged.size && isState(staged.state);
  } catch {
    done = false;
  }
  if (done) writeFileAtomically(file, `${JSON.stringify(staged.state)}\n`);
  rmSync(stagedPath(file), { force: true });
  return done ? staged.out : undefined;
}

/** Step one of saving a run: its state, with the output file it is for, beside the state file. */
export function stageState(file: string, out: { out: string; ino: number; size: number }, state: NewState): void {
  writeFileAtomically(stagedPath(file), (function* () {
    yield `${JSON.stringify(out).slice(0, -1)},"state":`;
    yield* stateText(state);
    yield '}\n';
  })());
}

/** Step two, once the output is in place: the state itself. */
export function saveState(file: string, state: NewState): void {
  writeFileAtomically(file, (function* () {
    yield* stateText(state);
    yield '\n';
  })());
  rmSync(stagedPath(file), { force: true });
}
