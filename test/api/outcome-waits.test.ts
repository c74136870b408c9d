import { describe, expect } from 'vitest';
import { payctl } from '../helpers/run.js';
import { providerError } from '../helpers/recording-server.js';
import { base, card, it, KEY, MKT, TX, tx } from './request-runs.js';

// A money move whose answer never came, and whose outcome payctl cannot prove: each waits out real
// deadlines (--timeout, the look for the outcome, a settle window) before exit 9, so it runs in the
// full lane (test/vitest.config.ts WAITS).

describe('POST outcomes that stay unknown', () => {
  it('a create whose connection dropped and that is not found in the wait is exit 9, never "safe"', async ({ api }) => {
    const result = await api.run([...base, ...card, '--timeout', '0.5'], (req) => (req.method === 'POST' ? { destroy: true } : { status: 200, body: { items: [], has_more: false } }));
    expect(result.code).toBe(9);
    expect(result.stderr).toContain('outcome unknown: the transaction with reference_id ref-1 may or may not have been applied (no usable answer');
    expect(result.stderr).toMatch(/it could still land until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\. Run the same command again: it waits until then and sends only if this one did not go through/);
    expect(result.stderr).not.toContain('safe to run');
    expect(api.posts()).toHaveLength(1);
    // It kept looking (for four timeouts), not once.
    expect(api.server.requests.filter((r) => r.method === 'GET').length).toBeGreaterThan(2);
  });

  it('a create that timed out and cannot be looked up exits 9 with the command to check', async ({ api }) => {
    let lookups = 0;
    const result = await api.run([...base, ...card, '--timeout', '0.3'], (req) => {
      if (req.method === 'POST') return { hang: true };
      lookups += 1;
      return lookups === 1 ? { status: 200, body: { items: [], has_more: false } } : { status: 503, body: providerError(503, 'unavailable', 'down') };
    });
    expect(result.code).toBe(9);
    expect(result.stderr).toContain('payctl transactions list --reference-id ref-1');
    expect(api.posts()).toHaveLength(1);
  });

  it('a refund answered 502 with the transaction unchanged is exit 9; the rerun waits out its window, then sends', async ({ api, home }) => {
    let fixed = false;
    // A window of 3 s: the run gives up after 2 s (four timeouts), before it closes.
    const window = { PAYCTL_SETTLE_WINDOW: '3' };
    const result = await api.run(['transactions', 'refund', TX, '--yes', '--timeout', '0.5'], (req) => {
      if (req.method === 'POST') return fixed ? tx('0.00', [{ id: 'h1' }, { id: 'h2', operation_type: 'void', status: 'succeeded', amount: '10.00' }], 'canceled') : { status: 502, raw: '' };
      return tx('10.00', [{ id: 'h1', operation_type: 'created' }]);
    }, window);
    expect(result.code).toBe(9);
    expect(result.stderr).toContain(`outcome unknown: the refund of transaction ${TX} may or may not have been applied (no usable answer`);
    expect(result.stderr).not.toContain('safe to run');
    fixed = true;
    const again = await payctl(['transactions', 'refund', TX, '--yes'], { home, env: { PAYCTL_BASE_URL: api.server.url, PAYCTL_API_KEY: KEY, PAYCTL_MARKETPLACE_ID: MKT, ...window } });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`left the refund of transaction ${TX} unresolved; checking it before sending anything`);
    expect(api.posts()).toHaveLength(2);
  });

  it('a capture answered 504 and still pre_authorized is exit 9: an answer is no proof it was refused', async ({ api }) => {
    const result = await api.run(['transactions', 'capture', TX, '--yes', '--timeout', '0.5'], (req) =>
      req.method === 'POST' ? { status: 504, raw: 'gateway timeout' } : tx('10.00', [], 'pre_authorized'),
    );
    expect(result.code).toBe(9);
    expect(result.stderr).toContain(`outcome unknown: the capture of transaction ${TX}`);
    expect(result.stderr).not.toContain('safe to run');
  });

  it('a refund whose outcome cannot be checked exits 9', async ({ api }) => {
    let gets = 0;
    const result = await api.run(['transactions', 'refund', TX, '--yes', '--timeout', '0.5'], (req) => {
      if (req.method === 'POST') return { destroy: true };
      gets++;
      return gets === 1 ? tx('10.00', []) : { status: 500, body: providerError(500, 'x', 'down') };
    });
    expect(result.code).toBe(9);
    expect(result.stderr).toContain(`payctl transactions get ${TX}`);
  });
});
