import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';

/**
 * The error for input a command needs and did not ask for: names it, and says why prompts are off
 * (--no-input, stdin or stdout not a terminal, an AI agent's shell). `kind`: what is named.
 */
export function missingInput(ctx: Pick<Factory, 'prompts'>, names: string[], kind: 'flag' | 'argument' | 'input' = 'flag'): UsageError {
  const off = ctx.prompts.off;
  // Spelled out rather than through platform/plural.ts: this module is loaded at every start-up.
  const what = kind === 'input' || names.length === 1 ? kind : `${kind}s`;
  return new UsageError(`missing required ${what} ${names.join(', ')}${off === undefined ? '' : ` (prompts are off: ${off})`}`);
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
