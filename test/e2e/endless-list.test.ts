// `payctl reconcile` (the built binary, in a process of its own) against a service whose transfers
// list never ends: has_more true on every page, new transfers on every page. Unbounded, it printed
// nothing for minutes while its memory grew; now it stops at the bound of what one command reads,
// with exit 8 naming it, and its peak memory stays bounded. The child reports its own peak RSS.
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { transfersList } from '../helpers/hostile-lists.js';
import { payctlMeasured } from '../helpers/measured.js';

/** `payctl reconcile` for November against `url`, measured. */
function reconcileMeasured(home: string, url: string, env: Record<string, string>) {
  return payctlMeasured(home, ['reconcile', '--from', '2026-11-01', '--to', '2026-11-30', '-o', 'json'], { PAYCTL_BASE_URL: url, PAYCTL_API_KEY: 'zpk_test_x', PAYCTL_MARKETPLACE_ID: '', ...env });
}

/** How a measured run went, for the log. */
const said = (result: { code: number | null; ms: number; maxRssKb: number }, pages: number) =>
  `exit ${result.code} after ${(result.ms / 1000).toFixed(1)} s, peak RSS ${Math.round(result.maxRssKb / 1024)} MB, ${pages} pages asked`;

describe('reconcile against a transfers list with no end', () => {
  it('PAYCTL_MAX_LIST_ITEMS=50000: stops at 50.000 transfers, exit 8 naming the bound, nothing printed, peak RSS bounded', async ({ home, recording }) => {
    const server = await recording(transfersList());
    const result = await reconcileMeasured(home, server.url, { PAYCTL_MAX_LIST_ITEMS: '50000' });
    console.log(`endless list, PAYCTL_MAX_LIST_ITEMS=50000: ${said(result, server.requests.length)}`);
    expect(result.code, result.stderr).toBe(8);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^error: the service's lists did not end within payctl's bound: the reads went past 50\.000 items, the most one command reads \(PAYCTL_MAX_LIST_ITEMS\): a list with no end, or one longer than that; stopped after 50\.000 items in 500 pages \([\d.]+ (ms|s)\), the last from GET http:\/\/127\.0\.0\.1:\d+\/v1\/transfers; the result is incomplete\n$/,
    );
    // The page past the bound and at most one asked for ahead of it.
    expect(server.requests.length).toBeLessThanOrEqual(502);
    expect(result.maxRssKb).toBeLessThan(150 * 1024);
  }, 120_000);

  it('with the item bound left at its default, the memory bound stops it: a quarter of the heap limit that NODE_OPTIONS=--max-old-space-size=64 sets', async ({ home, recording }) => {
    const server = await recording(transfersList());
    const result = await reconcileMeasured(home, server.url, { NODE_OPTIONS: '--max-old-space-size=64' });
    console.log(`endless list, --max-old-space-size=64: ${said(result, server.requests.length)}`);
    expect(result.code, result.stderr).toBe(8);
    expect(result.stdout).toBe('');
    const held = /^error: the service's lists did not end within payctl's bound: payctl held ([\d.]+) MB of what it read, past the ([\d.]+) MB it holds for one command \(a quarter of Node\.js's heap limit, set by NODE_OPTIONS=--max-old-space-size=<MB>\): a list too large to hold, or one with no end; stopped after [\d.]+ items in [\d.]+ pages \(.+\), the last from GET http:\/\/127\.0\.0\.1:\d+\/v1\/transfers; the result is incomplete\n$/.exec(result.stderr);
    expect(held, result.stderr).not.toBeNull();
    expect(Number(held![1])).toBeGreaterThan(Number(held![2]));
    // Stopped cleanly, well before V8's own out-of-memory abort.
    expect(result.stderr).not.toMatch(/heap out of memory|FATAL/);
    expect(result.maxRssKb).toBeLessThan(192 * 1024);
  }, 120_000);
});
