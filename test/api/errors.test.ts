import { describe, expect } from 'vitest';
import { it, type Fixtures } from '../helpers/fixtures.js';
import { payctl } from '../helpers/run.js';
import { providerError, times, type Reply } from '../helpers/recording-server.js';

const TX_ID = '0123456789abcdef0123456789abcdef';

/** `transactions get` against a recording server answering `replies`: the run, and the server. */
async function getAgainst({ home, recording }: Pick<Fixtures, 'home' | 'recording'>, replies: Reply[], extraArgs: string[] = []) {
  const server = await recording(replies);
  const result = await payctl(['transactions', 'get', TX_ID, ...extraArgs], {
    home,
    env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_live_secretkey1234', PAYCTL_MARKETPLACE_ID: '' },
  });
  return { ...result, server };
}

describe('API errors become one line and the contract exit code', () => {
  const cases: [number, number, string][] = [
    [400, 6, 'invalid_parameter'],
    [402, 6, 'void_transaction_error'],
    [401, 4, 'authentication_error'],
    [403, 4, 'forbidden'],
    [404, 5, 'resource_not_found'],
    [409, 6, 'conflict'],
    [422, 6, 'invalid_parameter'],
  ];
  for (const [status, exit, category] of cases) {
    it(`HTTP ${status} exits ${exit}`, async ({ home, recording }) => {
      const result = await getAgainst({ home, recording }, [{ status, body: providerError(status, category, `problem ${status}`) }]);
      expect(result.code).toBe(exit);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`error: problem ${status} (${category}, HTTP ${status})\n`);
      expect(result.server.requests).toHaveLength(1); // 4xx is never retried
    });
  }

  it('reasons are part of the line', async ({ home, recording }) => {
    const result = await getAgainst({ home, recording }, [{ status: 400, body: providerError(400, 'invalid_parameter', 'Invalid parameter(s)', { reasons: ['amount is required'] }) }]);
    expect(result.stderr).toBe('error: Invalid parameter(s): amount is required (invalid_parameter, HTTP 400)\n');
  });

  it('a message that ends as a sentence is followed by its reasons without a stop before the colon', async ({ home, recording }) => {
    const message = 'A buyer with this taxpayer_id already exists (id: 4f1c).';
    const result = await getAgainst({ home, recording }, [{ status: 409, body: providerError(409, 'duplicate_taxpayer_id', message, { reasons: ['taxpayer_id: already registered to buyer 4f1c'] }) }]);
    expect(result.stderr).toBe('error: A buyer with this taxpayer_id already exists (id: 4f1c): taxpayer_id: already registered to buyer 4f1c (duplicate_taxpayer_id, HTTP 409)\n');
    // Without reasons, the message is as the service wrote it.
    const alone = await getAgainst({ home, recording }, [{ status: 409, body: providerError(409, 'conflict', 'It already exists.') }]);
    expect(alone.stderr).toBe('error: It already exists. (conflict, HTTP 409)\n');
  });

  it('status_code given as a string in an error that arrives with HTTP 200', async ({ home, recording }) => {
    const result = await getAgainst({ home, recording }, [{ status: 200, body: { error: { status_code: '404', category: 'resource_not_found', message: 'gone' } } }]);
    expect(result.code).toBe(5);
    expect(result.stderr).toBe('error: gone (resource_not_found, HTTP 404)\n');
  });

  it('an error body that is not JSON', async ({ home, recording }) => {
    const result = await getAgainst({ home, recording }, [{ status: 418, raw: 'I am a teapot' }]);
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/^error: .*I am a teapot \(HTTP 418\)\n$/);
  });

  it('an empty error body', async ({ home, recording }) => {
    const result = await getAgainst({ home, recording }, [{ status: 404, raw: '' }]);
    expect(result.code).toBe(5);
    expect(result.stderr).toBe('error: not found (empty response body) (HTTP 404)\n');
  });

  it('429 is retried and then exits 7', async ({ home, recording }) => {
    const result = await getAgainst({ home, recording }, times(3, { status: 429, body: providerError(429, 'rate_limit', 'slow down'), headers: { 'retry-after': '0' } }));
    expect(result.code).toBe(7);
    expect(result.server.requests).toHaveLength(3);
    expect(result.stderr).toContain('slow down (rate_limit, HTTP 429)');
  });

  it('5xx on a GET is retried, then exits 8', async ({ home, recording }) => {
    const result = await getAgainst({ home, recording }, times(3, { status: 503, body: providerError(503, 'service_unavailable', 'down') }));
    expect(result.code).toBe(8);
    expect(result.server.requests).toHaveLength(3);
    expect(result.stderr).toBe('error: down (service_unavailable, HTTP 503)\n');
  });

  it('a GET that fails twice and then succeeds', async ({ home, recording }) => {
    const result = await getAgainst({ home, recording }, [
      { status: 502, raw: '<html>bad gateway</html>', headers: { 'content-type': 'text/html' } },
      { destroy: true },
      { status: 200, body: { id: TX_ID, status: 'succeeded', amount: '10.00' } },
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ id: TX_ID, status: 'succeeded', amount: '10.00' });
    expect(result.server.requests).toHaveLength(3);
  });

  it('Retry-After is honoured', async ({ home, recording }) => {
    const started = Date.now();
    const result = await getAgainst({ home, recording }, [
      { status: 429, body: providerError(429, 'rate_limit', 'slow down'), headers: { 'retry-after': '1' } },
      { status: 200, body: { id: TX_ID, status: 'succeeded', amount: '10.00' } },
    ]);
    expect(result.code).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('a timeout exits 8 with one line', async ({ home, recording }) => {
    const result = await getAgainst({ home, recording }, times(3, { hang: true }), ['--timeout', '0.3']);
    expect(result.code).toBe(8);
    expect(result.stderr).toMatch(/^error: no answer within 0\.3 s \(timeout\)/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a refused connection exits 8', async ({ home, recording }) => {
    const server = await recording([]); // only for a port that was just free
    const url = server.url;
    await server.close();
    const result = await payctl(['transactions', 'get', TX_ID], {
      home,
      env: { PAYCTL_BASE_URL: url, PAYCTL_API_KEY: 'zpk_live_secretkey1234' },
    });
    expect(result.code).toBe(8);
    expect(result.stderr).toMatch(/^error: connection refused/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('--debug adds a stack trace, masked', async ({ home, recording }) => {
    const result = await getAgainst({ home, recording }, [{ status: 404, body: providerError(404, 'resource_not_found', 'gone') }], ['--debug']);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/\n\s+at /);
    expect(result.stderr).not.toContain('zpk_live_secretkey1234');
  });
});

describe('usage errors', () => {
  it('unknown command', async ({ home }) => {
    const result = await payctl(['transactoins', 'list'], { home });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'transactoins'");
    expect(result.stderr).toContain('Did you mean transactions?');
  });

  it('unknown flag', async ({ home }) => {
    const result = await payctl(['transactions', 'list', '--colour'], { home });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '--colour'");
  });

  it('missing argument', async ({ home }) => {
    const result = await payctl(['transactions', 'get'], { home });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('missing required argument <id> (prompts are off: neither stdin nor stdout is a terminal)');
  });

  it('what is not an id never reaches a URL path: it is looked up as a reference_id, in the query', async ({ home, recording }) => {
    // A service with no sales: the lookup, four other spellings of it, and the latest sales.
    const server = await recording(times(6, { status: 200, body: { items: [], has_more: false, total: 0 } }));
    const result = await payctl(['transactions', 'get', '../../etc/passwd'], {
      home,
      env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_live_x' },
    });
    expect(result.code).toBe(5);
    expect(result.stderr).toBe('error: no transaction has the id or reference_id "../../etc/passwd", and none of the latest 200 sales has one like it\n');
    // The lookup, then the near references looked for: every one in the query of the list.
    const urls = server.requests.map((r) => new URL(r.url, 'http://x'));
    expect(urls.every((url) => url.pathname === '/v1/transactions')).toBe(true);
    expect(urls[0]?.searchParams.get('reference_id')).toBe('../../etc/passwd');
  });

  it('bad output format', async ({ home }) => {
    const result = await payctl(['transactions', 'list', '-o', 'xml'], { home });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('"xml" is not an output format');
  });

  it('plain http to a non-loopback host is refused before anything is sent', async ({ home }) => {
    const result = await payctl(['transactions', 'list'], {
      home,
      env: { PAYCTL_BASE_URL: 'http://payments.example.com', PAYCTL_API_KEY: 'zpk_live_x' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('refusing plain http:// to payments.example.com');
  });

  it('a group without a verb shows its help and exits 2', async ({ home }) => {
    const result = await payctl(['transactions'], { home });
    expect(result.code).toBe(2);
    expect(result.stderr + result.stdout).toContain('refund');
  });
});

describe('error bodies are read by their schema (src/api/error-json.ts)', () => {
  it('takes each field when it has its type and drops it when not', async () => {
    const { errorFromJson } = await import('../../src/api/error-json.js');
    const wrapped = errorFromJson(422, { error: { status_code: '422', category: 7, type: 'invalid_request_error', message: ' Invalid amount ', reasons: ['amount: too big', { field: 'x' }] } });
    expect(wrapped?.message).toBe('Invalid amount');
    expect(wrapped?.details).toEqual({ httpStatus: 422, type: 'invalid_request_error', reasons: ['amount: too big', '{"field":"x"}'] });
    // Under HTTP 200, the body's own status code is trusted; without one it is a 400.
    expect(errorFromJson(200, { error: { status_code: 402, message: 'declined' } })?.details.httpStatus).toBe(402);
    expect(errorFromJson(200, { error: { message: 'no code' } })?.details.httpStatus).toBe(400);
    // The unwrapped form only under an error status; a null wrapper or a 2xx result is not an error.
    expect(errorFromJson(422, { status: 'REFUSED', message: 'Transaction status is invalid' })?.details).toEqual({ httpStatus: 422, category: 'refused' });
    expect(errorFromJson(200, { status: 'Requested', message: 'ok' })).toBeNull();
    expect(errorFromJson(200, { error: null })).toBeNull();
    expect(errorFromJson(200, [])).toBeNull();
  });
});
