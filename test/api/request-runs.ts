// What the request tests share: payctl run against a recording server of its own, with the ids and
// the key it sends, and the answers a provider gives a create. test/api/requests.test.ts runs the
// quick ones; test/api/outcome-waits.test.ts the ones that wait out real deadlines.
import { expect } from 'vitest';
import { test } from '../helpers/fixtures.js';
import { payctl, type RunResult } from '../helpers/run.js';
import { RepliesInTurn, sentFields, type RecordedRequest, type RecordingServer, type Reply, type Route } from '../helpers/recording-server.js';

export const MKT = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
export const SELLER = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
export const BUYER = 'cccccccccccccccccccccccccccccccc';
export const CARD = 'dddddddddddddddddddddddddddddddd';
export const TX = 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
export const KEY = 'zpk_live_abcdefgh12345678';
// Due dates must be in the future whenever the suite runs.
export const NEXT = new Date().getFullYear() + 1;

// The sale a create asks for carries the reference it was sent (ref-1, as `base` sends it).
export const created = (extra: Record<string, unknown> = {}) => ({ status: 201, body: { id: TX, status: 'succeeded', amount: '10.50', currency: 'BRL', reference_id: 'ref-1', ...extra } });

type Run = (args: string[], replies: Reply[] | Route, env?: Record<string, string>) => Promise<RunResult>;

/**
 * `api.run` runs payctl against a recording server of its own answering `replies` (a create's
 * lookups answered apart); `api.server` is the last run's server, `api.posts()` the POSTs it got.
 */
export const it = test.extend<{ api: { run: Run; readonly server: RecordingServer; posts: () => RecordedRequest[] } }>({
  api: async ({ home, recording }, use) => {
    let server: RecordingServer | undefined;
    const last = () => server ?? expect.fail('no run yet');
    await use({
      run: async (args, replies, env = {}) => {
        server = await recording(Array.isArray(replies) && args[1] === 'create' ? answeringLookups(replies) : replies);
        return payctl(args, { home, env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: KEY, PAYCTL_MARKETPLACE_ID: MKT, ...env } });
      },
      get server() {
        return last();
      },
      posts: () => last().requests.filter((r) => r.method === 'POST'),
    });
  },
});

/**
 * A create with --reference-id first asks whether that reference already names a transaction:
 * those lookups find nothing, and the other requests get the replies in turn, each once.
 */
export function answeringLookups(replies: Reply[]): Route {
  const inTurn = new RepliesInTurn(replies);
  return (req) => (req.method === 'GET' ? { status: 200, body: { items: [], has_more: false } } : asProviderWould(req, inTurn.next(req)));
}

/** A created sale, as the provider answers it: with the reference and the amount it was sent. */
export function asProviderWould(req: RecordedRequest, reply: Reply): Reply {
  if (!('status' in reply) || reply.status !== 201 || !req.json) return reply;
  const sent = sentFields(req);
  const cents = Number(sent.amount);
  return { ...reply, body: { ...((reply as { body?: object }).body ?? {}), reference_id: sent.reference_id, amount: (cents / 100).toFixed(2) } };
}


export const base = ['transactions', 'create', '--on-behalf-of', SELLER, '--reference-id', 'ref-1'];

/** The card flags of a create. */
export const card = ['--amount', '10', '--card-number', '4111111111111111', '--holder-name', 'M S', '--exp-month', '12', '--exp-year', '2031', '--cvv', '123'];

/** A sale as the provider answers a read of it: its amount, history and status. */
export const tx = (amount: string, history: object[], status = 'succeeded') => ({
  status: 200,
  body: { id: TX, status, amount, currency: 'BRL', on_behalf_of: SELLER, payment_method: { card_brand: 'Visa', last4_digits: '1111' }, history },
});
