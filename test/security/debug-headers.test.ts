import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payctl, tempHome, type RunResult } from '../helpers/run.js';
import { recordingServer, type RecordingServer } from '../helpers/recording-server.js';

// --debug logs every header of both directions: a credential must show as [redacted] whatever
// header carries it, in a request (`payctl api -H`) or in the service's answer.
const KEY = 'zpk_live_HEADERSECRET77';
const OTHER_TOKEN = 'tok_4f9a0c2e1b7d';
const SIGNATURE = 'sha256=9b1c44de0aa3';
const SESSION = 'sess_very_private_42';

let home: { home: string; cleanup: () => void };
let server: RecordingServer;
let result: RunResult;

beforeAll(async () => {
  home = tempHome();
  server = await recordingServer([
    {
      status: 200,
      body: { ok: true },
      headers: {
        'set-cookie': `session=${SESSION}; HttpOnly`,
        'x-auth-token': OTHER_TOKEN,
        'x-echo': KEY,
        'x-request-id': 'req_77',
      },
    },
  ]);
  result = await payctl(
    [
      'api', 'GET', '/transactions', '--debug',
      '-H', `X-Api-Key: ${KEY}`,
      '-H', `X-Auth-Token: ${OTHER_TOKEN}`,
      '-H', `X-Payctl-Signature: ${SIGNATURE}`,
      '-H', `X-Forwarded-Credential: ${KEY}`,
      '-H', 'X-Trace: trace-abc',
    ],
    { home: home.home, env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: KEY, PAYCTL_MARKETPLACE_ID: 'm1' } },
  );
});

afterAll(async () => {
  await server.close();
  home.cleanup();
});

describe('--debug masks credentials in headers', () => {
  it('the headers were really sent and answered (the check is not vacuous)', () => {
    expect(result.code, result.stderr).toBe(0);
    const sent = server.requests[0]!.headers;
    expect(sent['x-api-key']).toBe(KEY);
    expect(sent['x-auth-token']).toBe(OTHER_TOKEN);
    expect(sent['x-payctl-signature']).toBe(SIGNATURE);
    expect(sent['x-forwarded-credential']).toBe(KEY);
  });

  it('request headers named like a credential, or holding the key, are redacted', () => {
    const lines = result.stderr.split('\n');
    expect(lines).toContain('> x-api-key: [redacted]');
    expect(lines).toContain('> x-auth-token: [redacted]');
    expect(lines).toContain('> x-payctl-signature: [redacted]');
    expect(lines).toContain('> x-forwarded-credential: [redacted]');
    expect(lines).toContain('> authorization: Basic [redacted]');
    // Anything else stays readable: a debug log is for debugging.
    expect(lines).toContain('> x-trace: trace-abc');
  });

  it('response headers are logged, the credentials among them redacted', () => {
    const lines = result.stderr.split('\n');
    expect(lines).toContain('< set-cookie: [redacted]');
    expect(lines).toContain('< x-auth-token: [redacted]');
    expect(lines).toContain('< x-echo: [redacted]');
    expect(lines).toContain('< x-request-id: req_77');
  });

  it('no secret anywhere in the output', () => {
    for (const secret of [KEY, OTHER_TOKEN, SIGNATURE, SESSION, Buffer.from(`${KEY}:`).toString('base64')]) {
      expect(result.stderr).not.toContain(secret);
      expect(result.stdout).not.toContain(secret);
    }
  });

  it('--dry-run redacts the same headers', async () => {
    const dry = await payctl(['api', 'GET', '/transactions', '--dry-run', '-H', `X-Api-Key: ${KEY}`, '-H', 'X-Trace: trace-abc'], {
      home: home.home,
      env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: KEY, PAYCTL_MARKETPLACE_ID: 'm1' },
    });
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout).headers).toMatchObject({ 'x-api-key': '[redacted]', 'x-trace': 'trace-abc' });
    expect(dry.stdout + dry.stderr).not.toContain(KEY);
  });
});
