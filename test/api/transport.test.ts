import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect } from 'vitest';
import { VERSION } from '../../src/version.js';
import { it } from '../helpers/fixtures.js';
import { payctl } from '../helpers/run.js';

const TX = '0123456789abcdef0123456789abcdef';
const TRANSACTION = { id: TX, status: 'succeeded', amount: '10.00' };
let proxy: Server | undefined;

afterEach(async () => {
  if (proxy) await new Promise((r) => proxy!.close(r));
  proxy = undefined;
});

/** A forward proxy (plain forwarding and CONNECT tunnels) that notes what passed through it. */
async function startProxy(seen: string[]): Promise<string> {
  proxy = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    req.pipe(upstream);
  });
  // undici tunnels through proxies with CONNECT, as real proxies expect for most traffic.
  proxy.on('connect', (req, client, head) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host ?? '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => proxy!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

describe('transport', () => {
  it('HTTP_PROXY is honoured', async ({ home, recording }) => {
    const server = await recording([{ status: 200, body: TRANSACTION }]);
    const seen: string[] = [];
    const proxyUrl = await startProxy(seen);
    const result = await payctl(['transactions', 'get', TX], {
      home,
      env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_live_k', HTTP_PROXY: proxyUrl, NO_PROXY: '' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(seen).toEqual([`CONNECT ${server.url.replace('http://', '')}`]);
    expect(server.requests).toHaveLength(1);
  });

  it('NO_PROXY bypasses the proxy', async ({ home, recording }) => {
    const server = await recording([{ status: 200, body: TRANSACTION }]);
    const seen: string[] = [];
    const proxyUrl = await startProxy(seen);
    const result = await payctl(['transactions', 'get', TX], {
      home,
      env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_live_k', HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(seen).toEqual([]);
  });

  it('--debug logs each exchange on stderr, credentials masked, stdout untouched', async ({ home, recording }) => {
    const server = await recording([{ status: 503, body: {} }, { status: 200, body: TRANSACTION }]);
    const result = await payctl(['transactions', 'get', TX, '--debug'], {
      home,
      env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_live_secret', PAYCTL_MARKETPLACE_ID: '' },
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(TRANSACTION);
    expect(result.stderr).toContain(`> GET ${server.url}/v1/transactions/${TX}`);
    expect(result.stderr).toContain('> authorization: Basic [redacted]');
    expect(result.stderr).toMatch(/< HTTP 503 \(\d+ ms\)/);
    expect(result.stderr).toMatch(/\* HTTP 503; retrying in \d+ ms/);
    expect(result.stderr).toMatch(/< HTTP 200 \(\d+ ms\)/);
    expect(result.stderr).not.toContain('zpk_live_secret');
    expect(result.stderr).not.toContain(Buffer.from('zpk_live_secret:').toString('base64'));
  });

  it('--dry-run prints the request and sends nothing', async ({ home, recording }) => {
    const server = await recording([]);
    const result = await payctl(['transactions', 'update', TX, '--description', 'x', '--dry-run', '-o', 'table'], {
      home,
      env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_live_secret', PAYCTL_MARKETPLACE_ID: 'm1' },
    });
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect(result.stdout).toBe(
      `PUT ${server.url}/v1/marketplaces/m1/transactions/${TX}\naccept: application/json\nuser-agent: payctl/${VERSION}\nauthorization: Basic [redacted]\ncontent-type: application/json\n\n{\n  "description": "x"\n}\n`,
    );
  });
});
