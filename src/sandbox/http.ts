import type { IncomingMessage, ServerResponse } from 'node:http';
import { SandboxError } from './errors.js';
import { isServedTestKey, MIN_TEST_KEY_TAIL, TEST_KEY_PREFIX } from './marketplaces.js';

// Far above any real payment request; stops a runaway client from filling memory.
const MAX_BODY_BYTES = 1024 * 1024;

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) {
      throw new SandboxError(413, 'invalid_parameter', `Request body exceeds ${MAX_BODY_BYTES} bytes.`);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** An empty body counts as `{}` so body-less POSTs such as approve work without one. */
export function parseJsonObject(text: string): JsonObject {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new SandboxError(400, 'invalid_parameter', `Invalid request: the body is not valid JSON (${(err as SyntaxError).message}).`);
  }
  if (!isObject(parsed)) {
    throw new SandboxError(400, 'invalid_parameter', 'Invalid request: the body must be a JSON object.');
  }
  return parsed;
}

/**
 * HTTP Basic with the API key as user name and an empty password, as the provider does; returns
 * the key. Only test keys are accepted so a live key pasted by mistake is refused, not silently
 * used; `strict` (sandbox serve, where a key is a marketplace of its own) also refuses one too short
 * to be anyone's own (marketplaces.ts).
 */
export function checkAuth(req: IncomingMessage, strict = false): string {
  const header = req.headers.authorization ?? '';
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const user = decoded.includes(':') ? decoded.slice(0, decoded.indexOf(':')) : decoded;
  if (strict ? !isServedTestKey(user) : !user.startsWith(TEST_KEY_PREFIX)) {
    const rule = strict
      ? `test keys (${TEST_KEY_PREFIX} followed by at least ${MIN_TEST_KEY_TAIL} more characters)`
      : `test keys (starting with ${TEST_KEY_PREFIX})`;
    throw new SandboxError(
      401,
      'unauthorized',
      match ? `Invalid API key: the sandbox accepts only ${rule}.` : 'Missing credentials: send HTTP Basic authentication with the API key as user name.',
      { headers: { 'WWW-Authenticate': 'Basic realm="payctl sandbox"' } },
    );
  }
  return user;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendText(res, status, JSON.stringify(body), 'application/json; charset=utf-8', headers);
}

export function sendText(res: ServerResponse, status: number, text: string, contentType: string, headers: Record<string, string> = {}): void {
  // Encoded once: Buffer.byteLength for the length and the socket's own encoding would read a
  // page of a list (a quarter of a megabyte) twice.
  const body = Buffer.from(text);
  res.writeHead(status, {
    'Content-Type': contentType,
    'Content-Length': body.length,
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(body);
}

export function sendError(res: ServerResponse, err: unknown): void {
  const error =
    err instanceof SandboxError
      ? err
      : new SandboxError(500, 'server_api_error', `Sandbox internal error: ${err instanceof Error ? err.message : String(err)}`);
  sendJson(res, error.httpStatus, error.toBody(), error.headers);
}
