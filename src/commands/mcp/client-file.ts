import { readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { UsageError } from '../../errors.js';
import { DirError, ensureDir } from '../../platform/dirs.js';
import { writeFileAtomically } from '../export/durable.js';
import { FileStepError, Leftovers, localFailure, localReason } from '../export/failure.js';
import type { ClientEntry } from './client-config.js';

// `mcp setup --write`: one server's entry put into an AI agent's client's file, which holds the
// person's other servers and settings. Read strictly (anything but a JSON object is an error naming
// the file, and nothing is written), changed in that one place, written atomically (a temporary
// file renamed over it, its mode kept) so that a crash leaves the old file or the new one, never
// half of either.

/** A client's file larger than this is not an MCP configuration: it is refused, not read whole. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** What `--write` did: made the file, added the entry to it, replaced an earlier one, or found it there already. */
export type WriteAction = 'created' | 'added' | 'replaced' | 'unchanged';

export interface Written {
  file: string;
  action: WriteAction;
  /** The other servers in the file, each kept as it was. */
  kept: string[];
  /** The entry that was there before, when it was replaced. */
  replaced?: unknown;
}

/** Adds `target`'s entry to its file (made, with its directories, when missing); an entry of the same name is replaced. */
export function writeEntry(target: ClientEntry): Written {
  const { file, key, name, entry } = target;
  const existing = readClientFile(target);
  const config = existing?.config ?? {};
  const servers = serversIn(config, target);
  const kept = Object.keys(servers).filter((server) => server !== name);
  const before = Object.hasOwn(servers, name) ? servers[name] : undefined;
  const action: WriteAction = existing === undefined ? 'created' : before === undefined ? 'added' : isDeepStrictEqual(before, entry) ? 'unchanged' : 'replaced';
  if (action !== 'unchanged') {
    // The servers' key keeps its place among the file's own, and the other servers their order.
    const next = { ...config, [key]: { ...servers, [name]: entry } };
    const indent = existing?.indent ?? '  ';
    save(existing?.path ?? file, `${JSON.stringify(next, null, indent)}\n`, existing?.mode, existing !== undefined);
  }
  return { file, action, kept, ...(action === 'replaced' ? { replaced: before } : {}) };
}

interface ClientFile {
  /** Where it really is (a link followed), so that the link stays one. */
  path: string;
  config: Record<string, unknown>;
  indent: string;
  mode: number;
}

/** The client's file, read strictly; undefined when there is none yet. */
function readClientFile({ file, title, client }: ClientEntry): ClientFile | undefined {
  let path: string;
  let text: string;
  let mode: number;
  try {
    path = realpathSync(file);
    const stat = statSync(path);
    if (!stat.isFile()) throw new UsageError(`${file} is not a file; nothing was written`);
    if (stat.size > MAX_FILE_BYTES) throw new UsageError(`${file} is ${stat.size} bytes: too large for ${title}'s MCP configuration (at most ${MAX_FILE_BYTES}); nothing was written`);
    mode = stat.mode & 0o7777;
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    // Not there, or a level above is not a directory: making its directory says which.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new UsageError(`cannot read ${file} (${localReason(err) ?? (err as Error).message}); nothing was written`);
  }
  let config: unknown;
  try {
    // A byte-order mark some Windows editors write is not part of the JSON.
    config = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new UsageError(
      `${file} is not valid JSON (${(err as Error).message}); nothing was written: fix it, or add the entry by hand ('payctl mcp setup --client ${client}' prints it). Comments and trailing commas are not JSON`,
    );
  }
  if (!isObject(config)) throw new UsageError(`${file} holds ${kindOf(config)}, not a JSON object; nothing was written`);
  return { path, config, indent: indentOf(text), mode };
}

/** The object of servers in the file (empty when it has none yet); anything else under its key is an error naming it. */
function serversIn(config: Record<string, unknown>, { file, key }: ClientEntry): Record<string, unknown> {
  const servers = config[key];
  if (servers === undefined) return {};
  if (!isObject(servers)) throw new UsageError(`${file}: "${key}" holds ${kindOf(servers)}, not an object of servers by name; nothing was written`);
  return servers;
}

/** Writes the file atomically, its directories made first; a failure names the file and says it is as it was. */
function save(path: string, text: string, mode: number | undefined, existed: boolean): void {
  const outcome = existed ? `${path} is as it was` : 'nothing was written';
  try {
    // A project's .vscode or .cursor, or an app's own directory: made as an editor makes them.
    ensureDir(dirname(path), 'directory', 0o755);
  } catch (err) {
    if (err instanceof DirError) throw new UsageError(`cannot write ${path}: its directory ${dirname(path)} ${err.problem}; ${outcome}`);
    throw err;
  }
  try {
    // An existing file keeps its mode; a new one is readable by all, as a project's files are (it holds no secret).
    writeFileAtomically(path, text, mode ?? 0o644);
  } catch (err) {
    if (!(err instanceof FileStepError)) throw err;
    const leftovers = new Leftovers();
    leftovers.add(err.leftovers);
    throw localFailure(err, `adding the entry to ${path}`, leftovers, outcome);
  }
}

/** The indentation of a JSON file's first indented line (two spaces when it has none). */
function indentOf(text: string): string {
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
