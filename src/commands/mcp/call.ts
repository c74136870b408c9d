import { PassThrough, Writable } from 'node:stream';
import type { Factory, NestedRun } from '../../factory.js';
import { CliError, ExitCode } from '../../errors.js';
import type { GlobalOptions } from '../../globals.js';
import type { IO } from '../../io.js';
import type { AgentClient } from '../../ledger/actor.js';

// A tool call runs its verb as the command line it stands for, in this process, through the
// command tree (a NestedRun, as `approvals approve` sends a request): the verb's own checks, the
// ledger and the rules all apply, with the agent as the actor. What the verb prints with -o json is
// the call's result; nothing it writes reaches the protocol's stdout.

/** The most a call's result may hold: a bounded list is far below it; past it the call fails instead of flooding the agent. */
export const MAX_RESULT_BYTES = 4 * 1024 * 1024;
/** The most of a call's diagnostics (warnings, status lines) kept to tell the agent. */
const MAX_DIAGNOSTIC_BYTES = 16 * 1024;

/**
 * What a call's verb did: printed its result, or threw (`printed`: what it printed before, if
 * anything: `transfers explain` prints the transfer, then ends with exit 12 when it does not add up).
 */
export type CallOutcome = { ok: true; value: unknown; diagnostics: string } | { ok: false; error: unknown; printed: unknown; diagnostics: string };

/** A stream that keeps what is written to it, up to `max` bytes; past that, `over` is called once and writes fail. */
function keeper(max: number, over?: () => Error): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  let size = 0;
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      if (size + buffer.length > max) {
        if (over) return done(over());
        const room = max - size;
        if (room > 0) chunks.push(buffer.subarray(0, room));
        size = max;
        return done();
      }
      chunks.push(buffer);
      size += buffer.length;
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** What a call's verb runs with: no terminal, nobody asked, JSON out, the server's profile and deadline. */
export function toolGlobals(server: GlobalOptions): GlobalOptions {
  return {
    ...(server.profile !== undefined ? { profile: server.profile } : {}),
    ...(server.timeoutSeconds !== undefined ? { timeoutSeconds: server.timeoutSeconds } : {}),
    output: 'json',
    color: false,
    // Nobody is asked at the server's end: what a person must confirm, the rules send to one
    // (an approval request, or a confirmation at the client), never a prompt here.
    input: false,
    yes: true,
    dryRun: false,
    debug: false,
    quiet: true,
    insecureHttp: server.insecureHttp,
    pager: false,
    csvRaw: false,
  };
}

/** Runs `words` as a verb of the tree for `agent`, and returns what it printed, parsed, or what it threw. */
export async function runToolCall(ctx: Factory, words: string[], agent: AgentClient): Promise<CallOutcome> {
  const out = keeper(MAX_RESULT_BYTES, () => new CliError(`the result is larger than ${MAX_RESULT_BYTES / 1024 / 1024} MB: ask for less (a smaller limit, narrower filters, or --fields)`, ExitCode.usage));
  const err = keeper(MAX_DIAGNOSTIC_BYTES);
  const stdin = new PassThrough();
  stdin.end();
  const io: IO = { stdin, stdout: out.stream, stderr: err.stream, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, env: ctx.io.env };
  const nested: NestedRun = { io, globals: toolGlobals(ctx.globals), agent };
  try {
    await ctx.commandTree(nested, words).parseAsync(words, { from: 'user' });
  } catch (error) {
    return { ok: false, error, printed: printedValue(out.text()), diagnostics: err.text() };
  } finally {
    await nested.factory?.close();
  }
  return { ok: true, value: printedValue(out.text()), diagnostics: err.text() };
}

/** What a verb printed with -o json, parsed: undefined when it printed nothing. */
function printedValue(printed: string): unknown {
  const text = printed.trim();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // NDJSON (a list streamed a line at a time): read as the list it is.
    return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as unknown);
  }
}
