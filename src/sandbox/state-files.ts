// The files earlier payctl versions kept the sandbox in, read once to move a user's sandbox into
// the database (store.ts) and then removed:
//
//   state.json                   one JSON document (version 1)
//   state.ndjson                 {"format":"payctl-sandbox","version":2,"generation":"<hex>"}
//                                then one line per unit: {"u":["clock"],"v":{…}},
//                                {"u":["transactions"],"v":[]}, {"u":["transactions","0"],"v":{…}}, …
//   changes-<generation>.ndjson  one line per change: {"units":[{"u":[…],"v":…} | {"u":[…],"d":1}, …]}
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';

type Mutable = Record<string, unknown>;

interface UnitRecord {
  u: [string] | [string, string];
  v?: unknown;
  d?: 1;
}

export class CorruptStateError extends Error {}

function applyUnit(state: Mutable, record: UnitRecord): void {
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

/** Calls `onLine` for each line of `file`, streamed (a snapshot can be larger than any one string). */
function forEachLine(file: string, onLine: (line: string, last: boolean) => void): void {
  const fd = openSync(file, 'r');
  try {
    const chunk = Buffer.allocUnsafe(1 << 20);
    let carry: Buffer = Buffer.alloc(0);
    for (;;) {
      const bytesRead = readSync(fd, chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      const data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
      // UTF-8 never uses the byte 0x0a inside a character, so splitting bytes on it is safe.
      let start = 0;
      for (let end = data.indexOf(10, start); end !== -1; end = data.indexOf(10, start)) {
        if (end > start) onLine(data.toString('utf8', start, end), false);
        start = end + 1;
      }
      carry = Buffer.from(data.subarray(start));
    }
    if (carry.length > 0) onLine(carry.toString('utf8'), true);
  } finally {
    closeSync(fd);
  }
}

function parse(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

export interface OldState {
  state: Mutable;
  /** The files it was read from, to remove once it is safely in the database. */
  files: string[];
}

/** The sandbox an earlier payctl left in `dir`, or undefined when there is none. */
export function readOldState(dir: string): OldState | undefined {
  const snapshot = path.join(dir, 'state.ndjson');
  const legacy = path.join(dir, 'state.json');
  if (existsSync(snapshot)) {
    let generation: string | undefined;
    const state: Mutable = {};
    forEachLine(snapshot, (line) => {
      const parsed = parse(line) as Mutable | undefined;
      if (generation === undefined) {
        if (parsed?.format !== 'payctl-sandbox' || parsed.version !== 2 || typeof parsed.generation !== 'string') {
          throw new CorruptStateError(`${snapshot} is not a payctl sandbox snapshot`);
        }
        generation = parsed.generation;
        return;
      }
      if (!parsed) throw new CorruptStateError(`${snapshot} has a line that is not JSON`);
      applyUnit(state, parsed as unknown as UnitRecord);
    });
    if (generation === undefined) throw new CorruptStateError(`${snapshot} is empty`);
    const changes = path.join(dir, `changes-${generation}.ndjson`);
    if (existsSync(changes)) {
      forEachLine(changes, (line, last) => {
        const parsed = parse(line) as { units?: UnitRecord[] } | undefined;
        // A last line cut short (a crash or a full disk mid-append) was a change never finished:
        // it is left out rather than making the whole sandbox unreadable.
        if (!parsed || !Array.isArray(parsed.units)) {
          if (last) return;
          throw new CorruptStateError(`${changes} has a line that is not a change`);
        }
        for (const record of parsed.units) applyUnit(state, record);
      });
    }
    return { state, files: [snapshot, changes, legacy] };
  }
  if (existsSync(legacy)) {
    const parsed = parse(readFileSync(legacy, 'utf8')) as Mutable | undefined;
    if (parsed?.version !== 1) throw new CorruptStateError(`${legacy} is not a payctl sandbox state`);
    return { state: parsed, files: [legacy] };
  }
  return undefined;
}
