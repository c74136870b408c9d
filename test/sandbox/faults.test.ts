import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { drawFault, parseFaults } from '../../src/sandbox/faults.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';

const AUTH = { authorization: `Basic ${Buffer.from('zpk_test_faults:').toString('base64')}`, 'content-type': 'application/json' };

describe('--faults spec', () => {
  it('reads every kind and setting, late-apply and late-ms among them', () => {
    const plan = parseFaults('500-before=0.1,late-apply=0.2,late-ms=1500,slow-ms=10,retry-after=2');
    expect(plan).toEqual({ rates: [['500-before', 0.1], ['late-apply', 0.2]], retryAfterSeconds: 2, slowMs: 10, lateMs: 1500 });
    expect(parseFaults('').lateMs).toBe(5000);
    expect(drawFault(plan, () => 0.15)).toBe('late-apply');
    expect(drawFault(plan, () => 0.35)).toBeUndefined();
  });

  it('refuses unknown names, missing numbers and rates over 1', () => {
    expect(() => parseFaults('late=0.1')).toThrow(/unknown fault "late"; use .*late-apply.*late-ms/);
    expect(() => parseFaults('late-apply')).toThrow('needs a number');
    expect(() => parseFaults('late-apply=0.7,slow=0.5')).toThrow('more than 1');
  });
});

describe('late-apply: the change lands after its connection was dropped', () => {
  let dir: string | undefined;
  let sandbox: SandboxHandle | undefined;
  afterEach(async () => {
    await sandbox?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a POST gets no answer and is applied late-ms later; reads are answered at once', async () => {
    dir = mkdtempSync(join(tmpdir(), 'payctl-faults-'));
    sandbox = await startSandbox({ stateDir: dir, faults: parseFaults('late-apply=1,late-ms=400') });
    const buyer = { first_name: 'Late', last_name: 'Buyer', email: 'late@example.com', taxpayer_id: '11144477735' };
    const sent = Date.now();
    const dropped = await request(`${sandbox.url}/v1/buyers`, { method: 'POST', headers: AUTH, body: JSON.stringify(buyer) }).catch((err: Error) => err);
    expect(dropped).toBeInstanceOf(Error); // the connection closed with no answer
    const list = async () => (await (await request(`${sandbox!.url}/v1/buyers?limit=100`, { headers: AUTH })).body.json()) as { items: Array<{ email: string }> };
    expect((await list()).items.some((b) => b.email === 'late@example.com')).toBe(false);
    while (!(await list()).items.some((b) => b.email === 'late@example.com')) {
      expect(Date.now() - sent).toBeLessThan(3000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(Date.now() - sent).toBeGreaterThanOrEqual(380);
  });
});
