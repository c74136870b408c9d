import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.js';
import { payctl, type RunResult } from '../helpers/run.js';
import { sentFields, type RecordedRequest, type Reply, type Route } from '../helpers/recording-server.js';

// Free text the service would store (a reference, a description, a name, a metadata entry) is
// refused with a control character in it, naming the flag, before anything is sent: a line break
// in a reference breaks every report it ends up in, an escape acts on whoever's terminal shows it.
const MKT = 'a'.repeat(32);
const SELLER = 'b'.repeat(32);
const TX = 'e'.repeat(32);
const BUYER = 'c'.repeat(32);
const card = ['--card-number', '4111111111111111', '--holder-name', 'Maria Silva', '--exp-month', '12', '--exp-year', String(new Date().getFullYear() + 2), '--cvv', '123'];

// A created sale as the provider answers it: the reference, amount and type it was sent.
const provider: Route = (req) =>
  req.method === 'GET'
    ? { status: 200, body: { items: [], has_more: false } }
    : { status: 201, body: { id: TX, status: 'pending', amount: (Number(sentFields(req).amount ?? 0) / 100).toFixed(2), payment_type: sentFields(req).payment_type, reference_id: sentFields(req).reference_id } };

/**
 * `run` runs payctl against a server answering with `route` (no replies, [], is a service that must
 * be asked nothing); `sent` is what changes it sent, lookups aside.
 */
const it = test.extend<{ run: (args: string[], route?: Route | Reply[]) => Promise<RunResult & { sent: () => RecordedRequest[] }> }>({
  run: async ({ home, recording }, use) => {
    await use(async (args, route = provider) => {
      const server = await recording(route);
      const result = await payctl(args, { home, env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_live_control', PAYCTL_MARKETPLACE_ID: MKT } });
      return { ...result, sent: () => server.requests.filter((r) => r.method !== 'GET') };
    });
  },
});

describe('control characters in what the service would store', () => {
  it.for([
    ['--reference-id with a line break', ['transactions', 'create', '--amount', '10', ...card, '--on-behalf-of', SELLER, '--reference-id', 'order\n42'], '--reference-id', 'U+000A (a line break)'],
    ['--description with an escape', ['transactions', 'create', '--amount', '10', ...card, '--on-behalf-of', SELLER, '--description', 'Pedido \u001b[2J'], '--description', 'U+001B (an escape)'],
    ['a --metadata value with a NUL', ['transactions', 'create', '--amount', '10', ...card, '--on-behalf-of', SELLER, '--metadata', 'pedido=7\u0000'], '--metadata', 'U+0000 (NUL)'],
    ['a holder name with a carriage return', ['transactions', 'create', '--amount', '10', ...card.map((a) => (a === 'Maria Silva' ? 'Maria\rSilva' : a)), '--on-behalf-of', SELLER], '--holder-name', 'U+000D (a carriage return)'],
    ['transactions update --description with a tab', ['transactions', 'update', TX, '--description', 'a\tb'], '--description', 'U+0009 (a tab)'],
    ['buyers create --first-name with a C1 control', ['buyers', 'create', '--first-name', 'Ana\u0085', '--last-name', 'Silva', '--taxpayer-id', '39053344705', '--email', 'ana@example.com'], '--first-name', 'U+0085'],
  ] as [string, string[], string, string][])('%s: exit 2 naming the flag and the character, nothing sent', async ([_name, args, flag, character], { run }) => {
    const result = await run([...args, '--yes'], []);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toBe(`error: ${flag}: holds a control character, ${character}, which the service would store; write it without one. Nothing was sent\n`);
    expect(result.sent()).toEqual([]);
  });

  it('a bolepix joins its instructions with line breaks itself; one instruction holding one is refused', async ({ run }) => {
    const base = ['transactions', 'create', '--payment-type', 'bolepix', '--amount', '80', '--customer', BUYER, '--on-behalf-of', SELLER, '--yes'];
    const joined = await run([...base, '--instruction', 'Não receber após o vencimento', '--instruction', 'Multa de 2%']);
    expect(joined.code, joined.stderr).toBe(0);
    expect(joined.sent()[0]!.json).toMatchObject({ payment_method: { billing_message_list: { message: 'Não receber após o vencimento\nMulta de 2%' } } });
    const refused = await run([...base, '--instruction', 'linha 1\nlinha 2'], []);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--instruction: holds a control character');
    expect(refused.sent()).toEqual([]);
  });

  it('payctl api is the raw way in: it sends what it is given', async ({ run }) => {
    const result = await run(['api', 'POST', '/transactions', '-f', 'description=a\nb']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.sent()[0]!.json).toEqual({ description: 'a\nb' });
  });
});
