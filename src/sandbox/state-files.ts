// The sandbox's state on disk: a snapshot and a log of the changes made since, both NDJSON.
//
//   state.ndjson                 {"format":"payctl-sandbox","version":2,"generation":"<hex>"}
//                                then one line per unit: {"u":["clock"],"v":{…}},
//                                {"u":["transactions"],"v":[]}, {"u":["transactions","0"],"v":{…}}, …
//   changes-<generation>.ndjson  one line per mutation: {"units":[{"u":[…],"v":…} | {"u":[…],"d":1}, …]}
//
// Why not one JSON document: a sandbox rehearsing an export holds hundreds of thousands of
// records, and rewriting (or even parsing) all of them for every refund is what made the single
// file slow; a string that size is also past what V8 will build. A change costs one appended
// line; loading streams line by line. The log is folded into a new snapshot (a new generation)
// once it outgrows the snapshot, so loading stays proportional to the state's size.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, writeSync } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { isCollection, type UnitKey } from './change-tracking.js';

export const SNAPSHOT_NAME = 'state.ndjson';
/** The single-document file of earlier versions, migrated on first use. */
export const LEGACY_NAME = 'state.json';
const FORMAT = 'payctl-sandbox';
const VERSION = 2;

export interface UnitRecord {
  u: UnitKey;
  v?: unknown;
  /** The item was removed. */
  d?: 1;
}

export class CorruptStateError extends Error {}

type Mutable = Record<string, unknown>;

export function changesName(generation: string): string {
  return `changes-${generation}.ndjson`;
}

export function newGeneration(): string {
  return randomBytes(8).toString('hex');
}

/** Puts one unit's value into the state (items into their collection, whole values at the top). */
export function applyUnit(state: Mutable, record: UnitRecord): void {
  const [top, key] = record.u;
  if (key === undefined) {
    if (record.d) delete state[top];
    else state[top] = record.v;
    return;
  }
  let collection = state[top] as Mutable | undefined;
  if (typeof collection !== 'object' || collection === null) state[top] = collection = {};
  if (record.d) delete collection[key];
  else collection[key] = record.v;
}

/** The records of one unit as it stands now in `state`. */
export function unitRecord(state: Mutable, unit: UnitKey): UnitRecord {
  const [top, key] = unit;
  const value = key === undefined ? state[top] : (state[top] as Mutable | undefined)?.[key];
  return value === undefined ? { u: unit, d: 1 } : { u: unit, v: value };
}

/** The state as records: each collection as an empty container followed by one record per item. */
function* snapshotRecords(state: Mutable): Generator<UnitRecord> {
  for (const [top, value] of Object.entries(state)) {
    if (!isCollection(top, value)) {
      yield { u: [top], v: value };
      continue;
    }
    yield { u: [top], v: Array.isArray(value) ? [] : {} };
    for (const [key, item] of Object.entries(value as Mutable)) yield { u: [top, key], v: item };
  }
}

/** Calls `onLine` for each complete line of `file` from byte `offset`; returns the offset after the last one. */
async function forEachLine(file: string, offset: number, onLine: (line: string) => void): Promise<number> {
  const handle = await open(file, 'r');
  try {
    const chunk = Buffer.allocUnsafe(1 << 20);
    let carry: Buffer = Buffer.alloc(0);
    let position = offset;
    let consumed = offset;
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
      // UTF-8 never uses the byte 0x0a inside a character, so splitting bytes on it is safe.
      let start = 0;
      for (let end = data.indexOf(10, start); end !== -1; end = data.indexOf(10, start)) {
        if (end > start) onLine(data.toString('utf8', start, end));
        consumed += end + 1 - start;
        start = end + 1;
      }
      // A line still being appended by another process stays for the next read.
      carry = Buffer.from(data.subarray(start));
    }
    return consumed;
  } finally {
    await handle.close();
  }
}

function parseLine(line: string, file: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new CorruptStateError(`${file} has a line that is not JSON`);
  }
}

export interface Snapshot {
  generation: string;
  state: Mutable;
}

/** Reads a snapshot; undefined when there is none. */
export async function readSnapshot(file: string): Promise<Snapshot | undefined> {
  let generation: string | undefined;
  const state: Mutable = {};
  try {
    await forEachLine(file, 0, (line) => {
      const parsed = parseLine(line, file) as Record<string, unknown>;
      if (generation === undefined) {
        if (parsed.format !== FORMAT || parsed.version !== VERSION || typeof parsed.generation !== 'string') {
          throw new CorruptStateError(`${file} is not a payctl sandbox snapshot`);
        }
        generation = parsed.generation;
        return;
      }
      applyUnit(state, parsed as unknown as UnitRecord);
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  if (generation === undefined) throw new CorruptStateError(`${file} is empty`);
  return { generation, state };
}

/** Applies the changes logged after `offset`; returns the new offset (unchanged when there is no log yet). */
export async function readChanges(file: string, offset: number, state: Mutable): Promise<number> {
  try {
    return await forEachLine(file, offset, (line) => {
      const { units } = parseLine(line, file) as { units?: UnitRecord[] };
      if (!Array.isArray(units)) throw new CorruptStateError(`${file} has a line that is not a change`);
      for (const record of units) applyUnit(state, record);
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && offset === 0) return 0;
    throw err;
  }
}

/** Appends one mutation's records (each already JSON) as one line to an open log; returns the bytes written. */
export async function appendChanges(log: FileHandle, recordTexts: string[]): Promise<number> {
  const line = Buffer.from(`{"units":[${recordTexts.join(',')}]}\n`);
  // No fsync: a line reaches every other process through the page cache at once, and the
  // sandbox does not promise to survive the machine losing power. Opened for appending, so the
  // write lands at the end whatever another process wrote since; written synchronously, since a
  // line of a few KB into the page cache takes microseconds.
  let written = 0;
  while (written < line.length) written += writeSync(log.fd, line, written);
  return line.length;
}

/**
 * Writes `state` as the snapshot of a new generation: streamed record by record to a temporary
 * file, synced, then renamed over the old snapshot, so readers see the old one or the new one,
 * never half of one. Returns the new generation.
 */
export async function writeSnapshot(dir: string, state: Mutable): Promise<string> {
  const generation = newGeneration();
  const file = path.join(dir, SNAPSHOT_NAME);
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const out = createWriteStream(tmp, { flags: 'wx', mode: 0o600 });
    // once() rejects if the stream errors while waiting, so no listener piles up per batch.
    const write = async (text: string) => {
      if (!out.write(text)) await once(out, 'drain');
    };
    await write(`${JSON.stringify({ format: FORMAT, version: VERSION, generation })}\n`);
    // Batched: one write per record would spend more time in the stream than in JSON.
    let batch = '';
    for (const record of snapshotRecords(state)) {
      batch += `${JSON.stringify(record)}\n`;
      if (batch.length > 1 << 20) {
        await write(batch);
        batch = '';
      }
    }
    if (batch) await write(batch);
    out.end();
    await once(out, 'finish');
    const handle = await open(tmp, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  return generation;
}
