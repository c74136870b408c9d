import { describe, expect, it } from 'vitest';
import { buildCreateRequest, createFingerprint } from '../../src/commands/transactions/create.js';
import { parseSplit } from '../../src/commands/transactions/split-input.js';
import type { Reply } from '../helpers/recording-server.js';
import { cardFlags, createCard, expectJson, expectUsage, freshHomePerTest, run, runAgainst, type Tx } from './helpers.js';

// Split rules: --split on create checked and sent in the provider's shape.
const home = freshHomePerTest();
const A = 'a1'.repeat(16);
const B = 'b2'.repeat(16);
const SELLER = 'f'.repeat(32);

/** A create against a recording server that knows no transaction yet and answers the POST with `sale`. */
function createAgainst(args: string[], sale: Tx) {
  return runAgainst(home(), ['transactions', 'create', '--on-behalf-of', SELLER, ...cardFlags(), '--reference-id', 'order-split', ...args], (req): Reply =>
    req.method === 'GET' ? { status: 200, body: { items: [], has_more: false } } : { status: 201, body: sale },
  );
}

describe('transactions create --split', () => {
  it('sends each part as a split rule: cents or a percentage, liable and charge_processing_fee always said', async () => {
    const sale = await createCard(home(), '100.00');
    const { result, requests } = await createAgainst(['--amount', '100.00', '--split', `${A}:70%,net`, '--split', `${B}:7,50,liable`, '--split', `c3:0.5%,net,liable`], sale);
    expectJson(result);
    const posts = requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.json.split_rules).toEqual([
      { recipient: A, liable: false, charge_processing_fee: true, percentage: 70 },
      { recipient: B, liable: true, charge_processing_fee: false, amount: 750 },
      { recipient: 'c3', liable: true, charge_processing_fee: true, percentage: 0.5 },
    ]);
    expect(posts[0]!.json.amount).toBe(10_000);
  });

  it('a create without --split sends no split_rules', async () => {
    const sale = await createCard(home(), '10.00');
    const { result, requests } = await createAgainst(['--amount', '10.00'], sale);
    expectJson(result);
    expect(requests.find((r) => r.method === 'POST')!.json).not.toHaveProperty('split_rules');
  });

  const refused: [string, string[], string][] = [
    ['parts over the amount', ['--amount', '10.00', '--split', `${A}:6.00`, '--split', `${B}:4.01`], 'the parts add up to 10.01, more than the amount 10.00'],
    ['percentages over 100%', ['--amount', '10.00', '--split', `${A}:70%`, '--split', `${B}:30.5%`], 'the parts add up to 100.5%, more than 100%'],
    ['a percentage and an amount over the amount', ['--amount', '10.00', '--split', `${A}:80%`, '--split', `${B}:2.01`], 'more than the amount 10.00'],
    ['a percentage above 100', ['--amount', '10.00', '--split', `${A}:101%`], 'not a percentage between 0 and 100'],
    ['no seller id', ['--amount', '10.00', '--split', '30%'], 'should look like <seller-id>:<amount|percent%>'],
    ['a recipient that is not an id', ['--amount', '10.00', '--split', 'seller one:30%'], 'malformed seller id'],
    ['no part after the id', ['--amount', '10.00', '--split', `${A}:,liable`], 'has no amount or percentage'],
    ['an unknown option', ['--amount', '10.00', '--split', `${A}:30%,gross`], 'not an amount'],
    ['the same recipient twice', ['--amount', '10.00', '--split', `${A}:30%`, '--split', `${A}:1.00`], `seller ${A} is named twice`],
    ["the sale's own seller", ['--amount', '10.00', '--split', `${SELLER}:30%`], "is the sale's own seller"],
    ['a zero amount', ['--amount', '10.00', '--split', `${A}:0`], '--split'],
  ];
  it.each(refused)('%s: exit 2 naming --split, nothing sent', async (_name, args, message) => {
    const { result, requests } = await createAgainst(args, {});
    expectUsage(result, '--split', message);
    expect(requests).toEqual([]);
  });

  it('a changed split is a different request: its fingerprint differs', () => {
    const input = { amountCents: 1000, currency: 'BRL', referenceId: 'r', onBehalfOf: SELLER, payment: { kind: 'card_id' as const, cardId: 'c', capture: true } };
    const seventy = createFingerprint(buildCreateRequest({ ...input, splits: [parseSplit(`${A}:70%`)] }));
    expect(createFingerprint(buildCreateRequest({ ...input, splits: [parseSplit(`${A}:60%`)] }))).not.toBe(seventy);
    expect(createFingerprint(buildCreateRequest(input))).not.toBe(seventy);
    expect(createFingerprint(buildCreateRequest({ ...input, splits: [parseSplit(`${A}:70%`)] }))).toBe(seventy);
  });

  it('--dry-run shows the split rules it would send', async () => {
    const result = await run(home(), ['transactions', 'create', '--amount', '10', ...cardFlags(), '--split', `${A}:3.00,net`, '--dry-run']);
    expect(expectJson(result).body.split_rules).toEqual([{ recipient: A, liable: false, charge_processing_fee: true, amount: 300 }]);
  });
});
