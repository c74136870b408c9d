import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';

/** The error for input a command needs when it may not ask for it. */
export function missingInput(flags: string[]): UsageError {
  const list = flags.join(', ');
  return new UsageError(
    // Spelled out rather than through platform/plural.ts: this module is loaded at every start-up.
    `missing ${flags.length === 1 ? 'required flag' : 'required flags'} ${list} (prompts are off: stdin or stdout is not a terminal, or --no-input was given)`,
  );
}

/** Reads a whole file, or standard input for "-". */
export async function readInputFile(ctx: Factory, path: string, flag: string): Promise<string> {
  if (path === '-') return readStream(ctx.io.stdin);
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(`${flag}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

export async function readStream(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Sets `body[field]` to what a flag gave, through `check` (which throws, naming the flag, on a bad value); nothing when it was not given. */
export function setGiven<T>(body: Record<string, unknown>, field: string, value: T | undefined, check: (given: T) => unknown = (given) => given): void {
  if (value !== undefined) body[field] = check(value);
}

export function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Commander gives repeatable options as arrays; this keeps them typed. */
export function stringList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
