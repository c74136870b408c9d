import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { payctl, tempHome } from '../helpers/run.js';
import { recordingServer, type RecordedRequest, type RecordingServer, type Reply } from '../helpers/recording-server.js';

// `payctl api`: any endpoint with the profile's key, prefix, retries and output; what it sends.
const MKT = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const KEY = 'zpk_live_apicommandkey1';
let server: RecordingServer | undefined;
const home = tempHome();
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function api(args: string[], replies: Reply[] | ((req: RecordedRequest, i: number) => Reply) = [{ status: 200, body: { ok: true } }], options: { stdin?: string } = {}) {
  server = await recordingServer(replies);
  return payctl(['api', ...args], { home: home.home, env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: KEY, PAYCTL_MARKETPLACE_ID: MKT }, ...options });
}

describe('payctl api', () => {
  it('GET with fields in the query, the marketplace prefix, Basic auth, JSON out', async () => {
    const result = await api(['GET', '/transactions', '-f', 'status=succeeded', '-F', 'limit=5', '-H', 'X-Trace: abc']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ ok: true });
    const req = server!.requests[0]!;
    expect(req.method).toBe('GET');
    expect(req.url).toBe(`/v1/marketplaces/${MKT}/transactions?status=succeeded&limit=5`);
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from(`${KEY}:`).toString('base64')}`);
    expect(req.headers['x-trace']).toBe('abc');
  });

  it('POST with typed and nested fields as the JSON body', async () => {
    const result = await api(['POST', 'transactions/t1/void', '-f', 'on_behalf_of=s1', '-F', 'amount=500', '-F', 'capture=true', '-f', 'source[card][holder_name]=Ana', '-F', 'tags[]=1', '-F', 'tags[]=2']);
    expect(result.code, result.stderr).toBe(0);
    expect(server!.requests[0]!.path).toBe(`/v1/marketplaces/${MKT}/transactions/t1/void`);
    expect(server!.requests[0]!.json).toEqual({ on_behalf_of: 's1', amount: 500, capture: true, source: { card: { holder_name: 'Ana' } }, tags: [1, 2] });
  });

  it('--input for the body; /v1/ paths taken as they are; --dry-run sends nothing and masks the key', async () => {
    const file = join(home.home, 'body.json');
    writeFileSync(file, '{"first_name":"Ana"}');
    const result = await api(['POST', '/v1/marketplaces/other/buyers', '--input', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(server!.requests[0]!.path).toBe('/v1/marketplaces/other/buyers');
    expect(server!.requests[0]!.json).toEqual({ first_name: 'Ana' });
    const stdin = await api(['PUT', 'buyers/b1', '--input', '-'], undefined, { stdin: '{"email":"a@example.com"}' });
    expect(stdin.code).toBe(0);
    expect(server!.requests[0]!.json).toEqual({ email: 'a@example.com' });
    const dry = await api(['DELETE', 'cards/c1', '--dry-run'], []);
    expect(server!.requests).toHaveLength(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dry_run: true, method: 'DELETE', url: `${server!.url}/v1/marketplaces/${MKT}/cards/c1`, headers: { authorization: 'Basic [redacted]' } });
    expect(dry.stdout).not.toContain(Buffer.from(`${KEY}:`).toString('base64'));
  });

  it('--paginate walks the list envelope and streams the items', async () => {
    const pages = (req: RecordedRequest): Reply => {
      const offset = Number(new URL(req.url, 'http://x').searchParams.get('offset'));
      const items = offset < 250 ? Array.from({ length: Math.min(100, 250 - offset) }, (_, i) => ({ id: `t${offset + i}` })) : [];
      return { status: 200, body: { resource: 'list', items, has_more: offset + items.length < 250, total: 250 } };
    };
    const result = await api(['GET', '/transactions', '--paginate', '-o', 'ndjson'], pages);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).id)).toEqual(Array.from({ length: 250 }, (_, i) => `t${i}`));
  });

  it('errors: exit codes from the status; a POST whose answer is lost is exit 9; bad arguments exit 2', async () => {
    expect((await api(['GET', '/nope'], [{ status: 404, body: { error: { status: 'Not Found', status_code: 404, category: 'resource_not_found', message: 'no such thing' } } }])).code).toBe(5);
    const lost = await api(['POST', '/transactions', '-F', 'amount=100', '--timeout', '5'], [{ destroy: true }]);
    expect(lost.code).toBe(9);
    expect((await api(['PATCH', '/x'], [])).code).toBe(2);
    expect((await api(['GET', '/transactions', '-f', 'novalue'], [])).code).toBe(2);
    expect((await api(['POST', '/transactions', '--paginate'], [])).code).toBe(2);
    // A GET that fails once is retried, as every command's is.
    const retried = await api(['GET', '/transactions'], [{ status: 503 }, { status: 200, body: { ok: 1 } }]);
    expect(retried.code).toBe(0);
    expect(server!.requests).toHaveLength(2);
  });
});

describe('mistyped commands', () => {
  it('suggest the nearest one', async () => {
    const result = await payctl(['transactoins', 'list'], { home: home.home });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Did you mean transactions?');
    const verb = await payctl(['transactions', 'lsit'], { home: home.home });
    expect(verb.stderr).toContain('Did you mean list?');
  });
});
