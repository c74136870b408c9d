import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, eventually } from '../helpers/serve.js';
import { tempHome, testEnv } from '../helpers/run.js';

// `webhooks listen` facing a hostile sender, over real HTTP on loopback, against the built binary
// (`npm run build` first): an unsigned or oversized body is refused before it is read, so ten
// large uploads at once do not grow the listener's memory; and a thousand connections held open
// without a request do not use up its file descriptors, so a genuine delivery still gets in.

const SECRET = 'whsec_limitsecret';
const MB = 1_048_576;

/** The documented scheme, written out here as in webhooks.test.ts. */
const sign = (body: string, t = Math.floor(Date.now() / 1000)) => `t=${t},v1=${createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex')}`;
const event = (id: string, extra: Record<string, unknown> = {}) => ({ id, type: 'invoice.paid', resource: 'event', payload: { object: { id: 'inv1', ...extra } }, created_at: '2026-11-22T10:00:00.000Z' });

interface Listener {
  child: ChildProcess;
  port: number;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  /** Stops the listener if still running, and removes its home. */
  stop(): Promise<void>;
}

/**
 * bin/payctl webhooks listen against a live-like account (the secret from --secret, nothing to
 * register with), as spawnPayctl runs it, plus what these tests need: the peak RSS written to
 * `rssFile` on exit (through NODE_OPTIONS=--import), and a lower limit on open files.
 */
async function startListener(options: { maxEvents: number; rssFile?: boolean; fileLimit?: number }): Promise<Listener & { peakRssMb: () => number }> {
  const { home, cleanup } = tempHome();
  const rssFile = join(home, 'maxrss');
  const env: Record<string, string> = { PAYCTL_BASE_URL: 'https://api.example.com', PAYCTL_API_KEY: 'zpk_live_listenkey0001' };
  if (options.rssFile) {
    const hook = join(home, 'rss-hook.mjs');
    writeFileSync(hook, `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS)));\n`);
    env.NODE_OPTIONS = `--import=${pathToFileURL(hook).href}`;
  }
  const args = [BIN, 'webhooks', 'listen', '--port', '0', '--secret', SECRET, '--max-events', String(options.maxEvents)];
  // `ulimit -n` in a shell that then becomes node: the same process, with fewer files allowed.
  const child =
    options.fileLimit === undefined
      ? spawn(process.execPath, args, { env: testEnv(home, env), stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('/bin/sh', ['-c', `ulimit -n ${options.fileLimit} && exec "$0" "$@"`, process.execPath, ...args], { env: testEnv(home, env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    cleanup();
  };
  try {
    await eventually(() => /Listening on http:\/\/127\.0\.0\.1:\d+\//.test(err) || child.exitCode !== null, 10_000, 'the listener to start');
    const port = Number(/Listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(err)?.[1]);
    if (!port) throw new Error(`webhooks listen did not start: ${err}`);
    return {
      child,
      port,
      stdout: () => out,
      stderr: () => err,
      exited,
      stop,
      peakRssMb: () => Number(readFileSync(rssFile, 'utf8')) / 1024,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

interface Answer {
  status: number;
  /** Body bytes the client got to hand to its socket before the answer ended the upload. */
  sent: number;
  /** Whether the connection was closed by the end of the exchange. */
  closed: Promise<void>;
}

/**
 * One POST whose body is streamed from a generator of `total` bytes in 64 KiB pieces (never held
 * whole), with or without a Content-Length; resolves on the answer's status line. Between pieces
 * it goes back to the event loop, as a sender doing anything else does: one writing in a tight
 * loop reads nothing, the answer included, until the kernel stops taking its writes, and the
 * listener (discarding after its answer) may take them all.
 */
function upload(port: number, headers: Record<string, string>, total: number, withLength: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    const piece = Buffer.alloc(64 * 1024, 0x61);
    async function* body() {
      while (sent < total) {
        await new Promise((resolve) => setImmediate(resolve));
        const next = piece.subarray(0, Math.min(piece.length, total - sent));
        sent += next.length;
        yield next;
      }
    }
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/webhooks', agent: false, headers: { 'content-type': 'application/json', ...headers, ...(withLength ? { 'content-length': String(total) } : {}) } });
    const closed = new Promise<void>((done) => req.once('close', () => done()));
    req.once('response', (res: IncomingMessage) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, sent, closed });
    });
    // An upload cut short by the listener closing the connection is expected; the answer came first.
    pipeline(Readable.from(body()), req).catch((e: unknown) => reject(e instanceof Error ? e : new Error(String(e))));
  });
}

/** A small delivery, as a sender makes it, on a fresh connection. */
function deliver(port: number, body: string, signature?: string): Promise<number> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
  if (signature !== undefined) headers['x-payctl-signature'] = signature;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/webhooks', agent: false, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', reject);
    req.end(body);
  });
}

/** The listener's open file descriptors, where /proc says (Linux); undefined elsewhere. */
function openFiles(pid: number): number | undefined {
  return existsSync(`/proc/${pid}/fd`) ? readdirSync(`/proc/${pid}/fd`).length : undefined;
}

describe('webhooks listen under a hostile sender', () => {
  it('answers ten unsigned 30 MB uploads at once without reading them, with bounded memory, and still takes a genuine delivery', async () => {
    const listener = await startListener({ maxEvents: 1, rssFile: true });
    try {
      const started = Date.now();
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => upload(listener.port, { 'x-payctl-delivery': `flood${i}` }, 30 * MB, i % 2 === 0)));
      const took = Date.now() - started;
      // Missing signature: 400, as the unsigned deliveries in webhooks.test.ts are answered.
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(400));
      expect(took).toBeLessThan(3_000);
      // The answer ended each upload: what got out is what socket buffers hold, not 30 MB.
      for (const a of answers) expect(a.sent).toBeLessThan(16 * MB);
      await Promise.all(answers.map((a) => a.closed));

      const genuine = event('a'.repeat(32));
      const body = JSON.stringify(genuine);
      expect(await deliver(listener.port, body, sign(body))).toBe(200);
      expect(await listener.exited).toBe(0);
      expect(listener.stdout().trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual([genuine]);
      expect(listener.stderr().match(/rejected a delivery that has no X-Payctl-Signature \(event flood\d\); not printed/g)).toHaveLength(10);
      // Node and the bundle alone take some 60-90 MB; 300 MB of bodies read whole would show.
      const peak = listener.peakRssMb();
      console.log(`webhooks listen peak RSS, ten 30 MB unsigned uploads: ${peak.toFixed(1)} MB`);
      expect(peak).toBeLessThan(200);
    } finally {
      await listener.stop();
    }
  }, 30_000);

  it('refuses a body declared or grown over 1 MB with 413, before or while reading, and takes one of exactly 1 MB', async () => {
    const listener = await startListener({ maxEvents: 1 });
    const raw: Socket[] = [];
    try {
      // A valid-looking signature and a Content-Length of 2 MB: answered before a byte of the body is sent.
      const sock = connect(listener.port, '127.0.0.1');
      raw.push(sock);
      let reply = '';
      sock.on('data', (d: Buffer) => (reply += d.toString('latin1')));
      const ended = new Promise<void>((resolve) => sock.once('close', () => resolve()));
      sock.on('error', () => undefined);
      sock.write(`POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Payctl-Delivery: big1\r\nX-Payctl-Signature: ${sign('{}')}\r\nContent-Length: ${2 * MB}\r\n\r\n`);
      await eventually(() => reply.includes('\r\n\r\n'), 3_000, 'an answer to headers alone');
      expect(reply).toMatch(/^HTTP\/1\.1 413 /);
      await Promise.race([ended, new Promise((_, reject) => setTimeout(() => reject(new Error('the connection was left open after 413')), 3_000))]);

      // Chunked, with no length: read up to 1 MB, then 413 and the connection closed; the rest never sent.
      const chunked = await upload(listener.port, { 'x-payctl-delivery': 'big2', 'x-payctl-signature': sign('{}') }, 64 * MB, false);
      expect(chunked.status).toBe(413);
      expect(chunked.sent).toBeLessThan(20 * MB);
      await Promise.race([chunked.closed, new Promise((_, reject) => setTimeout(() => reject(new Error('the connection was left open after 413')), 3_000))]);

      // The limit is 1 MB inclusive: a genuine delivery of exactly 1 MB is taken and printed.
      const shell = JSON.stringify(event('b'.repeat(32), { note: '' }));
      const genuine = event('b'.repeat(32), { note: 'n'.repeat(MB - Buffer.byteLength(shell)) });
      const body = JSON.stringify(genuine);
      expect(Buffer.byteLength(body)).toBe(MB);
      expect(await deliver(listener.port, body, sign(body))).toBe(200);
      expect(await listener.exited).toBe(0);
      expect(JSON.parse(listener.stdout())).toEqual(genuine);
      expect(listener.stderr().match(/rejected a delivery larger than 1 MB \(event big[12]\); not printed/g)).toHaveLength(2);
    } finally {
      for (const s of raw) s.destroy();
      await listener.stop();
    }
  }, 30_000);

  it('lets a genuine delivery in while a thousand idle connections are held open, within few open files', async () => {
    // 400 files: plenty for the listener's bounded connections, too few for one file per idle connection.
    const listener = await startListener({ maxEvents: 1, fileLimit: 400 });
    const idle: Socket[] = [];
    try {
      let closedByListener = 0;
      await Promise.all(
        Array.from({ length: 1_000 }, async () => {
          const sock = connect(listener.port, '127.0.0.1');
          idle.push(sock);
          sock.on('error', () => undefined);
          sock.once('close', () => (closedByListener += 1));
          await new Promise<void>((resolve) => {
            sock.once('connect', () => resolve());
            sock.once('close', () => resolve());
          });
        }),
      );
      // The oldest idle ones are closed to make room: no more than the cap stay open.
      await eventually(() => 1_000 - closedByListener <= 256, 5_000, 'the listener to close idle connections beyond its cap');
      const files = openFiles(listener.child.pid!);
      if (files !== undefined) expect(files).toBeLessThan(256 + 64);

      const genuine = event('c'.repeat(32));
      const body = JSON.stringify(genuine);
      expect(await deliver(listener.port, body, sign(body))).toBe(200);
      expect(await listener.exited).toBe(0);
      expect(listener.stdout().trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual([genuine]);
      // Said once at most, not once each.
      expect((listener.stderr().match(/idle connections/g) ?? []).length).toBeLessThanOrEqual(1);
      expect(listener.stderr().split('\n').length).toBeLessThan(10);
    } finally {
      for (const s of idle) s.destroy();
      await listener.stop();
    }
  }, 30_000);
});
