// A loopback proxy that records every request and passes it on to a real server (a sandbox), so a
// test sees the exact body the CLI sent (card number included, which --dry-run masks) and the
// real answer it got for it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordedRequest } from './recording-server.js';

export interface RecordingProxy {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function recordingProxy(target: string): Promise<RecordingProxy> {
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
    requests.push({ method: req.method ?? '', url, path: url.split('?')[0] ?? '', headers: req.headers, body, json });
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
    const answer = await fetch(`${target}${url}`, { method: req.method, headers, body: body === '' ? undefined : body, redirect: 'manual' });
    const text = await answer.text();
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
