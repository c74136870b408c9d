// The state file of `payctl export --state`: where the next run starts, and the fingerprints of
// the records of the lookback window, so that a re-read record is written again only if it
// changed. Written only after the run's output is complete and on the disk (see run.ts).
import { accessSync, constants, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../../errors.js';
import { writeFileAtomically } from './durable.js';
import { onFile } from './failure.js';

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

export const stagedPath = (file: string) => `${file}.next`;

/** What to do about a state file that is not one: said with every such refusal. */
const REMEDY = 'if it was damaged, restore it from a copy, or move it away and run again: the next run then exports everything (with --since, from that day)';

/** A file's JSON; undefined when there is no file; `damaged` says what a file that does not parse is. */
function readJson(file: string, damaged: (why: string) => unknown = (why) => {
  throw new UsageError(`--state: ${file} is not a payctl export state file (${why}); ${REMEDY}`);
}): unknown {
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
    return damaged(text.trim() === '' ? 'it is empty' : /^\s*\{/.test(text) ? 'its JSON is cut short or damaged' : 'not JSON');
  }
}

const isDate = (value: unknown): boolean => typeof value === 'string' && Number.isFinite(Date.parse(value));

/** Why a parsed state file is not one this payctl can start from; undefined when it is. */
function stateProblem(value: unknown): string | undefined {
  const s = value as Record<string, unknown> | null;
  if (typeof s !== 'object' || s === null || Array.isArray(s)) return 'it is not a JSON object';
  if (s.payctl_export !== 1) return 'it has no "payctl_export": 1';
  if (typeof s.resource !== 'string') return 'its "resource" is not a name';
  if (typeof s.format !== 'string') return 'its "format" is not a name';
  if (!(s.cursor === null || isDate(s.cursor))) return 'its "cursor" is not null or a date';
  if (!(s.since === null || isDate(s.since))) return 'its "since" is not null or a date';
  if (!(typeof s.lookback_days === 'number' && Number.isInteger(s.lookback_days) && s.lookback_days >= 0 && s.lookback_days <= 365)) return 'its "lookback_days" is not 0 to 365';
  if (!(s.runs === undefined || (typeof s.runs === 'number' && Number.isInteger(s.runs) && s.runs >= 0))) return 'its "runs" is not a count';
  if (!Array.isArray(s.seen)) return 'its "seen" is not a list';
  for (const entry of s.seen as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 3 || !entry.every((part) => typeof part === 'string')) return 'its "seen" holds an entry that is not [id, created_at, fingerprint]';
  }
  return undefined;
}

function isState(value: unknown): value is ExportState {
  return stateProblem(value) === undefined;
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
  const problem = stateProblem(value);
  if (problem !== undefined || !isState(value)) throw new UsageError(`--state: ${file} is not a payctl export state file (${problem ?? 'not its shape'}); ${REMEDY}`);
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
  // Staged files are written whole (durable.ts): one that does not parse is dropped like one that
  // names another file, and the run it was for counts as never made.
  const read = readJson(stagedPath(file), () => null);
  if (read === undefined) return undefined;
  const staged = read as Partial<Staged> | null;
  let done = false;
  try {
    const stat = statSync(staged?.out as string);
    done = stat.ino === staged?.ino && stat.size === staged.size && isState(staged.state);
  } catch {
    done = false;
  }
  if (done) writeFileAtomically(file, `${JSON.stringify(staged?.state)}\n`);
  onFile(stagedPath(file), () => rmSync(stagedPath(file), { force: true }), `remove ${stagedPath(file)}`);
  return done ? staged?.out : undefined;
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
  onFile(stagedPath(file), () => rmSync(stagedPath(file), { force: true }), `remove ${stagedPath(file)}`);
}
