// `sandbox serve`: each test key is a marketplace of its own (its own database, named by a hash of
// the key); a key too short to be anyone's own is refused; and the server stays on this machine
// unless told otherwise.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { isLoopback } from '../../src/commands/sandbox/serve.js';
import { SANDBOX_API_KEY, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { marketplaceName } from '../../src/sandbox/marketplaces.js';
import { servedSandboxForBlock, spawnPayctl, eventually } from '../helpers/serve.js';
import { cardFlags, expectError, expectJson, expectUsage, run } from './helpers.js';
const ALICE = 'zpk_test_alice_0123456789abcdef';
const BOB = 'zpk_test_bob_fedcba9876543210';

/** Every name under `dir`, at any depth. */
function namesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' });
}

describe('sandbox serve: each key its own marketplace', () => {
  const served = servedSandboxForBlock();
  const as = (key: string) => ({ env: { ...served().env, PAYCTL_API_KEY: key } });
  const basic = (key: string) => ({ authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` });

  it("one key cannot read, refund or list another key's transaction (404); its owner still can", async ({ home }) => {
    const sale = expectJson(await run(home, ['transactions', 'create', '--amount', '10.00', ...cardFlags()], as(ALICE)));
    expectError(await run(home, ['transactions', 'get', sale.id], as(BOB)), 5, 'HTTP 404');
    expectError(await run(home, ['transactions', 'refund', sale.id, '--yes'], as(BOB)), 5, 'HTTP 404');
    expect(expectJson(await run(home, ['transactions', 'list'], as(BOB)))).toEqual([]);
    const after = expectJson(await run(home, ['transactions', 'get', sale.id], as(ALICE)));
    expect(after).toMatchObject({ id: sale.id, status: 'succeeded', amount: '10.00' });
    // Nor does the built-in key (the embedded sandbox's state) see it.
    expectError(await run(home, ['transactions', 'get', sale.id], as(SANDBOX_API_KEY)), 5, 'HTTP 404');
  });

  it('every marketplace is seeded with the same seller the server prints', async ({ home }) => {
    const pix = expectJson(await run(home, ['transactions', 'create', '--payment-type', 'pix', '--amount', '5', '--on-behalf-of', SANDBOX_SELLER_ID], as(BOB)));
    expect(pix.on_behalf_of).toBe(SANDBOX_SELLER_ID);
  });

  it("webhooks are per marketplace: one key's are not listed for another", async ({ home }) => {
    const hook = expectJson(await run(home, ['webhooks', 'create', '--url', 'http://127.0.0.1:9/hook', '--event', 'transaction.succeeded'], as(ALICE)));
    const ids = (key: string) => run(home, ['webhooks', 'list'], as(key)).then((r) => (expectJson(r) as Array<{ id: string }>).map((w) => w.id));
    expect(await ids(ALICE)).toContain(hook.id);
    expect(await ids(BOB)).not.toContain(hook.id);
  });

  it('the state is kept under a hash of the key, never the key itself', ({ home }) => {
    const state = join(served().home, 'state');
    const names = namesUnder(state);
    expect(names).toContain(join('marketplaces', marketplaceName(ALICE), 'sandbox'));
    expect(names.some((name) => name.includes('alice') || name.includes('bob'))).toBe(false);
  });

  it("a cancellation letter's link names the marketplace, not the key, and only its own transaction's letter is there", async ({ home }) => {
    const sale = expectJson(await run(home, ['transactions', 'create', '--amount', '3.00', ...cardFlags()], as(ALICE)));
    expectJson(await run(home, ['transactions', 'refund', sale.id, '--yes'], as(ALICE)));
    const file = join(home, 'letter.pdf');
    const letter = expectJson(await run(home, ['transactions', 'cancellation-letter', sale.id, '--save', file], as(ALICE)));
    expect(letter.url).toBe(`${served().url}/m/${marketplaceName(ALICE)}/files/cancelled-letters/Carta_Cancelamento_${sale.id}.pdf`);
    expect(readFileSync(file, 'latin1')).toContain(`transacao ${sale.id}`);
    // The same letter asked for in another marketplace is not there.
    const elsewhere = await fetch(letter.url.replace(marketplaceName(ALICE), marketplaceName(BOB)));
    expect(elsewhere.status).toBe(404);
  });

  it.for<[string, string]>([
    ['the bare prefix', 'zpk_test_'],
    ['a short key', 'zpk_test_short'],
    ['one character short', `zpk_test_${'x'.repeat(15)}`],
    ['a live key', 'zpk_live_0123456789abcdef'],
  ])("%s is refused: 401 in the provider's error shape", async ([_, key], { home }) => {
    const reply = await fetch(`${served().url}/v1/transactions`, { headers: basic(key) });
    expect(reply.status).toBe(401);
    expect(reply.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect(await reply.json()).toEqual({
      error: {
        status: 'Unauthorized',
        status_code: 401,
        type: 'invalid_request_error',
        category: 'unauthorized',
        message: 'Invalid API key: the sandbox accepts only test keys (zpk_test_ followed by at least 16 more characters).',
      },
    });
    expectError(await run(home, ['transactions', 'list'], as(key)), 4);
  });

  it('a key of exactly 16 characters after the prefix is accepted', async () => {
    const reply = await fetch(`${served().url}/v1/transactions`, { headers: basic(`zpk_test_${'y'.repeat(16)}`) });
    expect(reply.status).toBe(200);
  });
});

describe('sandbox serve --host', () => {
  it('an address other than loopback without --expose: exit 2 naming the flag, nothing served', async ({ home }) => {
    expectUsage(await run(home, ['sandbox', 'serve', '--host', '0.0.0.0', '--port', '0']), '--host: 0.0.0.0 is not a loopback address', 'add --expose');
    expectUsage(await run(home, ['sandbox', 'serve', '--host', '192.168.1.20', '--port', '0']), '--expose');
  });

  it('with --expose it serves, and warns on stderr even with --quiet', async ({ home }) => {
    const server = spawnPayctl(['sandbox', 'serve', '--host', '0.0.0.0', '--port', '0', '--expose', '--quiet'], home, {});
    try {
      // Two pipes: the warning, written first, may still be read after the URL.
      await eventually(() => server.stdout().includes('\n') && server.stderr().includes('\n'), 10_000, 'the URL on stdout and the warning on stderr');
      expect(server.stdout()).toMatch(/^http:\/\/0\.0\.0\.0:\d+\n$/);
      expect(server.stderr()).toBe(
        'warning: the sandbox is served on 0.0.0.0, beyond this machine, over plain HTTP; anyone who can reach it can use it with a key of their own\n',
      );
    } finally {
      server.child.kill('SIGINT');
    }
    expect(await server.exited).toBe(0);
  });

  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0:0:0:0:0:0:0:1', true],
    ['::ffff:127.0.0.1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['10.0.0.5', false],
    ['example.com', false],
    ['128.0.0.1', false],
  ])('%s is loopback: %s', (host, loopback) => {
    expect(isLoopback(host)).toBe(loopback);
  });
});
