import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

// What `webhooks listen` allows a sender, whoever it is: the port is open to anything that can
// reach it, and nothing about a request is trusted before its signature is checked. Found by a
// hostile test: bodies read whole before the check (ten unsigned 100 MB uploads at once took over
// 1 GB), and some 20,000 connections opened and left idle used up the process's open files, so a
// genuine delivery was refused. Hence a body is refused before it is read when its signature
// header cannot be right or it says it is too large, is read only up to MAX_BODY_BYTES, and the
// open connections are capped, the oldest idle one making room for a new one.

/** The largest body read; a delivery is a few KB. Inclusive: a body of exactly this is read. */
export const MAX_BODY_BYTES = 1_048_576;
/** Open connections at most; at the cap the oldest idle one is closed to make room. */
export const MAX_CONNECTIONS = 256;
/** From a connection's first byte to its request's headers, or from accepting it if it sends none. */
export const HEADERS_TIMEOUT_MS = 5_000;
/** From a request's first byte to its body's last. */
export const REQUEST_TIMEOUT_MS = 10_000;
/** How long a connection is kept open, idle, after an answer. */
export const KEEP_ALIVE_TIMEOUT_MS = 2_000;

/** How long a refused sender may go on sending, discarded, after its answer, before the connection is cut. */
export const LINGER_MS = 2_000;

/** The server options that bound how long a connection may take (checked every second, not every 30 s). */
export const SERVER_LIMITS = {
  headersTimeout: HEADERS_TIMEOUT_MS,
  requestTimeout: REQUEST_TIMEOUT_MS,
  keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
  connectionsCheckingInterval: 1_000,
} as const;

/**
 * Answers and closes the connection without reading (more of) the body: the sender's upload
 * stops there, and what it sent is discarded, not kept. Node would close the connection at once
 * after an answer with Connection: close; with an upload still arriving, closing resets the
 * connection, and a sender still writing then mostly sees the reset (EPIPE), not the answer. So
 * the connection is only half closed (the answer, then end of stream) and cut LINGER_MS later if
 * the sender has not closed its side by then.
 */
export function refuseAndClose(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  const socket = res.socket;
  res.writeHead(status, { ...headers, connection: 'close' });
  // After Node's own 'finish' handler, which ends the socket and means to destroy it once ended.
  res.once('finish', () => {
    if (!socket || socket.destroyed) return;
    socket.removeListener('finish', socket.destroy);
    const cut = setTimeout(() => socket.destroy(), LINGER_MS);
    cut.unref();
    socket.once('close', () => clearTimeout(cut));
  });
  res.end();
}

/** Whether the request says its body is larger than MAX_BODY_BYTES (a chunked one is checked as it is read). */
export function declaredTooLarge(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return length !== undefined && Number(length) > MAX_BODY_BYTES;
}

/** The body, or 'too-large' as soon as more than MAX_BODY_BYTES came (the rest is not kept), or 'aborted'. */
export function readBounded(req: IncomingMessage): Promise<Buffer | 'too-large' | 'aborted'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.off('data', onData);
        chunks.length = 0;
        resolve('too-large');
      } else chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks, size)));
    req.once('error', reject);
    // Closed before its end (the sender went away): nothing to answer. After 'end' this is a no-op.
    req.once('close', () => resolve('aborted'));
  });
}

/**
 * Caps the server's open connections at `max`. A connection is idle from when it is accepted
 * until its request has fully arrived, and again once answered (kept alive): one that sends
 * nothing, or dribbles, holds a file and nothing more. When a connection arrives at the cap, the
 * oldest idle one is closed to make room: the newcomer is never the one turned away, so a genuine
 * delivery gets in however many idle ones a sender holds. Only when every open connection has a
 * complete request being answered is the newcomer closed. `onFirstDrop` is called once, for the
 * first connection closed this way: closing one per idle connection would not be worth a line each.
 * Also closes a connection that sends nothing within HEADERS_TIMEOUT_MS (Node's headersTimeout
 * counts from a request's first byte, so it does not cover one that never sends any).
 * Returns `busy(socket, res)`, to be called once a request has fully arrived.
 */
export function capConnections(server: Server, onFirstDrop: () => void, max = MAX_CONNECTIONS): (req: IncomingMessage, res: ServerResponse) => void {
  // Insertion order is acceptance order: the first idle one found is the oldest.
  const open = new Set<Socket>();
  const answering = new Set<Socket>();
  let dropped = false;
  const drop = (socket: Socket) => {
    if (!dropped) {
      dropped = true;
      onFirstDrop();
    }
    socket.destroy();
  };
  server.on('connection', (socket: Socket) => {
    if (open.size >= max) {
      let oldestIdle: Socket | undefined;
      for (const s of open) {
        if (!answering.has(s)) {
          oldestIdle = s;
          break;
        }
      }
      // Taken out now, not on its 'close' (which comes later), so the count stays at the cap.
      if (oldestIdle) {
        open.delete(oldestIdle);
        drop(oldestIdle);
      } else {
        drop(socket);
        return;
      }
    }
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      answering.delete(socket);
    });
    // Cleared when its request's headers arrive (see below); Node's own timeouts take over then.
    socket.setTimeout(HEADERS_TIMEOUT_MS);
  });
  server.on('request', (req: IncomingMessage) => {
    // After Node's keep-alive timer is cleared for a new request: nothing may cut it short now
    // but requestTimeout while its body arrives.
    req.socket.setTimeout(0);
  });
  return (req, res) => {
    const socket = req.socket;
    if (!open.has(socket)) return;
    answering.add(socket);
    res.once('close', () => answering.delete(socket));
  };
}
