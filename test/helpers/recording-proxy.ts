// A loopback proxy that records every request and passes it on to a real server (a sandbox), so a
// test sees the exact body the CLI sent (card number included, which --dry-run masks) and the
// real answer it got for it. `fault` makes it fail a request on purpose: pass it on and lose the
// answer (the change is made, the caller never hears of it), or answer 503 without passing it on.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordedRequest } from './recording-server.js';

export interface RecordingProxy {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export type ProxyFault = 'lose-answer' | 'unavailable' | undefined;

export async function recordingProxy(target: string, fault: (request: RecordedRequest) => ProxyFault = () => undefined): Promise<RecordingProxy> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = req.url ?? '';
    let json: unknown;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      // not JSON: the raw body is kept
    }
    const request: RecordedRequest = { method: req.method ?? '', url, path: url.split('?')[0] ?? '', headers: req.headers, body, json };
    requests.push(request);
    const failing = fault(request);
    if (failing === 'unavailable') {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { category: 'service_unavailable', message: 'unavailable on purpose' } }));
      return;
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
    const answer = await fetch(`${target}${url}`, { method: req.method, headers, body: body === '' ? undefined : body, redirect: 'manual' });
    const text = await answer.text();
    if (failing === 'lose-answer') {
      res.socket?.destroy();
      return;
    }
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
