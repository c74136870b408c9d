// Answers are bounded: one larger than PAYCTL_MAX_ANSWER_MB (default 32 MB) is refused, stopped
// as soon as the limit is passed (or at once when its Content-Length says so), and one nesting
// deeper than 256 levels is refused before it is parsed. A read that gets one is exit 8; a money
// move that gets one has an unknown outcome (exit 9). The large cases run bin/payctl (run
// `npm run build` first) in a process of its own, whose peak memory it reports itself.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { payctlMeasured } from '../helpers/measured.js';
import { payctl, tempHome } from '../helpers/run.js';

const TX = '0123456789abcdef0123456789abcdef';
const TRANSACTION = { id: TX, status: 'succeeded', amount: '10.00', currency: 'BRL', on_behalf_of: 'b'.repeat(32), history: [{ id: 'h1', operation_type: 'authorization' }] };
const MB = 1024 * 1024;
const CHUNK = 64 * 1024;
/** What a process that read a whole 500 MB answer (or parsed 5 million levels) cannot stay under. */
const RSS_CEILING_KB = 200 * 1024;

/** What the server saw of one answer: bytes handed to the socket, and whether the client hung up first. */
interface Sent {
  method: string;
  path: string;
  written: number;
  cutOff: boolean;
  done: Promise<void>;
}

type Answer =
  | { status?: number; json: unknown }
  | { status?: number; raw: string }
  /** A body streamed from `chunks` (never allocated whole), with a Content-Length of `length` if given. */
  | { status?: number; chunks: () => Iterable<Buffer>; length?: number };

interface Hostile {
  url: string;
  sent: Sent[];
  close(): Promise<void>;
}

async function hostileServer(answer: (method: string, path: string) => Answer): Promise<Hostile> {
  const sent: Sent[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((req, res) => void respond(req, res));
  async function respond(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for await (const _ of req); // the request body, if any
    const reply = answer(req.method ?? '', (req.url ?? '').split('?')[0] ?? '');
    let finish!: () => void;
    const record: Sent = { method: req.method ?? '', path: req.url ?? '', written: 0, cutOff: false, done: new Promise((resolve) => (finish = resolve)) };
    sent.push(record);
    res.on('close', () => {
      if (!res.writableFinished) record.cutOff = true;
      finish();
    });
    if (!('chunks' in reply)) {
      const text = 'json' in reply ? JSON.stringify(reply.json) : reply.raw;
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      record.written = Buffer.byteLength(text);
      res.end(text);
      return;
    }
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...(reply.length !== undefined ? { 'content-length': reply.length } : {}) });
    for (const chunk of reply.chunks()) {
      if (res.destroyed || record.cutOff) return;
      record.written += chunk.length;
      if (!res.write(chunk)) {
        await new Promise<void>((resolve) => {
          res.once('drain', resolve);
          res.once('close', resolve);
        });
      }
    }
    res.end();
  }
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `total` bytes: `head`, then `fill` repeated, in chunks of 64 KB; one chunk buffer of each kind at most. */
function* bytes(total: number, fill: string, head = ''): Generator<Buffer> {
  const full = Buffer.alloc(CHUNK, fill);
  let left = total;
  if (head) {
    const first = Buffer.alloc(CHUNK, fill);
    first.write(head);
    yield first.subarray(0, Math.min(CHUNK, left));
    left -= Math.min(CHUNK, left);
  }
  while (left > 0) {
    yield left >= CHUNK ? full : full.subarray(0, left);
    left -= CHUNK;
  }
}

/** `[` × depth, then `]` × depth. */
function* deepArray(depth: number): Generator<Buffer> {
  yield* bytes(depth, '[');
  yield* bytes(depth, ']');
}

let home: { home: string; cleanup: () => void };
let server: Hostile | undefined;
beforeEach(() => {
  home = tempHome();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  home.cleanup();
});

const envFor = (url: string, extra: Record<string, string> = {}) => ({ PAYCTL_BASE_URL: url, PAYCTL_API_KEY: 'zpk_test_x', PAYCTL_MARKETPLACE_ID: '', ...extra });

/** bin/payctl in a child process that reports its own peak RSS, against the server of the test. */
const measured = (args: string[], extra: Record<string, string> = {}) => payctlMeasured(home.home, args, envFor(server!.url, extra));

const run = (args: string[], extra: Record<string, string> = {}) => payctl(args, { home: home.home, env: envFor(server!.url, extra) });

/** The one line of stderr, for an exit `code`. */
function oneLine(result: { code: number | null; stdout: string; stderr: string }, code: number): string {
  expect(result.code, result.stderr).toBe(code);
  expect(result.stdout).toBe('');
  expect(result.stderr).not.toContain('undefined');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  return lines[0] as string;
}

const getUrl = () => `GET ${server!.url}/v1/transactions/${TX}`;
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('an answer larger than the limit (default 32 MB)', () => {
  for (const withLength of [false, true]) {
    it(`500 MB ${withLength ? 'with' : 'without'} a Content-Length: exit 8, one line, stopped early, peak RSS under 200 MB`, async () => {
      const total = 500 * MB;
      server = await hostileServer(() => ({ chunks: () => bytes(total, 'a', `{"id":"${TX}","pad":"`), ...(withLength ? { length: total } : {}) }));
      const result = await measured(['transactions', 'get', TX]);
      console.log(`500 MB answer, Content-Length ${withLength ? 'present' : 'absent'}: peak RSS ${Math.round(result.maxRssKb / 1024)} MB, server wrote ${Math.round(server.sent[0]!.written / MB)} MB`);
      const line = oneLine(result, 8);
      if (withLength) {
        expect(line).toBe(`error: the service's answer to ${getUrl()} is larger than 32 MB (PAYCTL_MAX_ANSWER_MB): its Content-Length says 500 MB; not read`);
      } else {
        expect(line).toBe(`error: the service's answer to ${getUrl()} is larger than 32 MB (PAYCTL_MAX_ANSWER_MB); stopped reading it`);
      }
      expect(result.maxRssKb).toBeLessThan(RSS_CEILING_KB);
      // The server was hung up on long before it had written its answer; not asked again.
      expect(server.sent).toHaveLength(1);
      await server.sent[0]!.done;
      expect(server.sent[0]!.cutOff).toBe(true);
      expect(server.sent[0]!.written).toBeLessThan(withLength ? 16 * MB : 64 * MB);
    }, 120_000);
  }
});

describe('an answer nesting deeper than 256 levels', () => {
  for (const debug of [false, true]) {
    it(`[ × 5,000,000 then ] × 5,000,000${debug ? ', with --debug' : ''}: exit 8, peak RSS under 200 MB`, async () => {
      server = await hostileServer(() => ({ chunks: () => deepArray(5_000_000) }));
      const result = await measured(['transactions', 'get', TX, ...(debug ? ['--debug'] : [])]);
      console.log(`5,000,000 levels${debug ? ' (--debug)' : ''}: peak RSS ${Math.round(result.maxRssKb / 1024)} MB`);
      if (!debug) expect(oneLine(result, 8)).toBe(`error: the service's answer to ${getUrl()} nests deeper than 256 levels; not parsed`);
      else {
        expect(result.code, result.stderr.slice(-500)).toBe(8);
        // --debug shows the exchange (the answer cut at 4,000 characters) and the error's stack too.
        expect(result.stderr.split('\n')).toContain(`error: the service's answer to ${getUrl()} nests deeper than 256 levels; not parsed`);
      }
      expect(result.maxRssKb).toBeLessThan(RSS_CEILING_KB);
    }, 120_000);
  }

  it('300 levels in a small answer are refused; 256 levels, and brackets inside strings, pass', async () => {
    let answer: Answer = { raw: `${'['.repeat(300)}${']'.repeat(300)}` };
    server = await hostileServer(() => answer);
    expect(oneLine(await run(['transactions', 'get', TX]), 8)).toBe(`error: the service's answer to ${getUrl()} nests deeper than 256 levels; not parsed`);
    // Inside a transaction (one level), 300 levels of a field of its own: refused alike.
    answer = { raw: JSON.stringify({ ...TRANSACTION, extra: JSON.parse(`${'['.repeat(300)}${']'.repeat(300)}`) }) };
    expect(oneLine(await run(['transactions', 'get', TX]), 8)).toMatch(/nests deeper than 256 levels; not parsed$/);
    // 1 + 255 levels: the most allowed.
    answer = { raw: JSON.stringify({ ...TRANSACTION, extra: JSON.parse(`${'['.repeat(255)}${']'.repeat(255)}`) }) };
    let ok = await run(['transactions', 'get', TX, '-o', 'json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).id).toBe(TX);
    // Brackets in strings, with escaped quotes and backslashes around them, are not levels.
    const description = `\\" ${'[{'.repeat(1000)} \\\\"${'['.repeat(300)}`;
    answer = { json: { ...TRANSACTION, description } };
    ok = await run(['transactions', 'get', TX, '-o', 'json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).description).toBe(description);
  });

  it('a normal answer passes', async () => {
    server = await hostileServer(() => ({ json: TRANSACTION }));
    const ok = await run(['transactions', 'get', TX, '-o', 'json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual(TRANSACTION);
  });
});

describe('PAYCTL_MAX_ANSWER_MB', () => {
  /** A valid transaction of about 2 MB. */
  const large = { json: { ...TRANSACTION, description: 'x'.repeat(2 * MB) } };

  it('1 with a 2 MB answer to a read: exit 8 naming the limit; 3 lets it through', async () => {
    server = await hostileServer(() => large);
    const refused = await run(['transactions', 'get', TX], { PAYCTL_MAX_ANSWER_MB: '1' });
    expect(oneLine(refused, 8)).toBe(`error: the service's answer to ${getUrl()} is larger than 1 MB (PAYCTL_MAX_ANSWER_MB): its Content-Length says 2 MB; not read`);
    expect(server.sent).toHaveLength(1); // not asked again
    const passed = await run(['transactions', 'get', TX, '-o', 'json'], { PAYCTL_MAX_ANSWER_MB: '3' });
    expect(passed.code, passed.stderr).toBe(0);
    expect(JSON.parse(passed.stdout).description).toHaveLength(2 * MB);
  });

  it('1 with a 2 MB answer without a Content-Length: stopped reading it, exit 8', async () => {
    server = await hostileServer(() => ({ chunks: () => bytes(2 * MB, 'x', `{"id":"${TX}","description":"`) }));
    const refused = await run(['transactions', 'get', TX], { PAYCTL_MAX_ANSWER_MB: '1' });
    expect(oneLine(refused, 8)).toBe(`error: the service's answer to ${getUrl()} is larger than 1 MB (PAYCTL_MAX_ANSWER_MB); stopped reading it`);
  });

  it('1 with a 2 MB answer to a refund: outcome unknown (exit 9), never 0 or 1', async () => {
    server = await hostileServer((method) => (method === 'GET' ? { json: TRANSACTION } : large));
    const started = Date.now();
    const result = await run(['transactions', 'refund', TX, '--amount', '1', '--yes', '--timeout', '0.5'], { PAYCTL_MAX_ANSWER_MB: '1', PAYCTL_SETTLE_WINDOW: '60' });
    expect(result.code, result.stderr).toBe(9);
    expect(result.stderr).not.toContain('undefined');
    // The last line is the error (a line before it says the key is a test key).
    const line = result.stderr.trimEnd().split('\n').at(-1) as string;
    expect(line).toMatch(new RegExp(`^error: outcome unknown: the refund of transaction ${TX}`));
    expect(line).toContain('Run the same command again');
    expect(server.sent.filter((s) => s.method === 'POST')).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);

  for (const value of ['abc', '0', '-1', '1e400']) {
    it(`${value}: exit 2 naming the variable, nothing sent`, async () => {
      server = await hostileServer(() => ({ json: TRANSACTION }));
      const line = oneLine(await run(['transactions', 'get', TX], { PAYCTL_MAX_ANSWER_MB: value }), 2);
      expect(line).toMatch(new RegExp(`^error: ${escaped('PAYCTL_MAX_ANSWER_MB')}: `));
      expect(server.sent).toHaveLength(0);
    });
  }
});
