import { describe, expect, it } from 'vitest';
import { renderList, renderObject } from '../../src/output/render.js';
import { parse } from '../helpers/csv.js';
import { Collector, options, pagesOf, transaction } from './helpers.js';

describe('csv', () => {
  it('prints a header of flattened dotted paths, then one row per item across pages', async () => {
    const out = new Collector();
    const items = [
      { id: 'tx_1', amount: '10.50', payment_method: { card_brand: 'Visa' } },
      { id: 'tx_2', amount: '3', payment_method: { card_brand: 'MasterCard' } },
    ];
    const count = await renderList(pagesOf([items[0]], [items[1]]), options('csv', out));
    expect(count).toBe(2);
    expect(out.text).toBe('id,amount,payment_method.card_brand\ntx_1,10.50,Visa\ntx_2,3,MasterCard\n');
  });

  it('takes columns from the union of keys in the first page and drops keys first seen later', async () => {
    const out = new Collector();
    await renderList(
      pagesOf([{ id: 'a', x: 1 }, { id: 'b', y: { z: 2 } }], [{ id: 'c', x: 3, late: 'dropped' }]),
      options('csv', out),
    );
    expect(out.text).toBe('id,x,y.z\na,1,\nb,,2\nc,3,\n');
  });

  it('uses --fields as the exact columns, in that order', async () => {
    const out = new Collector();
    await renderList(
      pagesOf([transaction(1)], [transaction(2, { payment_method: null })]),
      options('csv', out, { fields: ['payment_method.card_brand', 'id', 'amount', 'missing'] }),
    );
    expect(out.text).toBe('payment_method.card_brand,id,amount,missing\nVisa,tx_1,1234.56,\n,tx_2,1234.56,\n');
  });

  it('writes remaining arrays and objects as JSON, null as empty, booleans as words', async () => {
    const out = new Collector();
    await renderList(
      pagesOf([{ id: 'a', tags: ['x', 'y'], meta: {}, gone: null, ok: true, no: false, n: 0 }]),
      options('csv', out),
    );
    const [header, row] = out.text.trimEnd().split('\n');
    expect(header).toBe('id,tags,meta,gone,ok,no,n');
    expect(row).toBe('a,"[""x"",""y""]",{},,true,false,0');
  });

  it('keeps the API values unformatted', async () => {
    const out = new Collector();
    await renderObject(transaction(1), options('csv', out, { fields: ['amount', 'created_at', 'status'] }));
    expect(out.text).toBe('amount,created_at,status\n1234.56,2026-03-01T12:34:56+00:00,succeeded\n');
  });

  it('quotes commas and quotes; a line break in API text becomes a space', async () => {
    const out = new Collector();
    await renderList(pagesOf([{ d: 'a,b', q: 'say "hi"', n: 'l1\nl2' }]), options('csv', out));
    expect(out.text).toBe('d,q,n\n"a,b","say ""hi""",l1 l2\n');
  });

  it('prints a single object as a header and one row', async () => {
    const out = new Collector();
    await renderObject({ id: 'tx_1', payment_method: { card_brand: 'Visa' } }, options('csv', out));
    expect(out.text).toBe('id,payment_method.card_brand\ntx_1,Visa\n');
  });

  it('prints nothing for an empty list, or only the header with --fields', async () => {
    const bare = new Collector();
    expect(await renderList(pagesOf([]), options('csv', bare))).toBe(0);
    expect(bare.text).toBe('');
    const withFields = new Collector();
    await renderList(pagesOf([], []), options('csv', withFields, { fields: ['id', 'status'] }));
    expect(withFields.text).toBe('id,status\n');
  });

  it('starts the columns at the first non-empty page', async () => {
    const out = new Collector();
    await renderList(pagesOf([], [{ id: 'a' }]), options('csv', out));
    expect(out.text).toBe('id\na\n');
  });

  it('prints the header once however many pages', async () => {
    const out = new Collector();
    const pages = Array.from({ length: 5 }, (_, p) => [transaction(p * 2), transaction(p * 2 + 1)]);
    expect(await renderList(pagesOf(...pages), options('csv', out, { fields: ['id'] }))).toBe(10);
    const lines = out.text.trimEnd().split('\n');
    expect(lines).toHaveLength(11);
    expect(lines.filter((l) => l === 'id')).toHaveLength(1);
  });

  it('gives non-object items a value column', async () => {
    const out = new Collector();
    await renderList(pagesOf(['a', 'b']), options('csv', out));
    expect(out.text).toBe('value\na\nb\n');
  });
});

describe('csv: safe to open in a spreadsheet', () => {
  const FORMULAS = ["=cmd|' /C calc'!A0", '+SUM(A1:A9)', '-2+3', '@HYPERLINK("http://x","y")', '\t=1+1', '\rfoo'];

  async function csvOf(items: unknown[], extra: Parameters<typeof options>[2] = {}): Promise<string[][]> {
    const out = new Collector();
    await renderList(pagesOf(items), options('csv', out, extra));
    return parse(out.text);
  }

  it("prefixes a cell that a spreadsheet would run as a formula with '", async () => {
    const rows = await csvOf(FORMULAS.map((d) => ({ d })));
    expect(rows.slice(1).map((r) => r[0])).toEqual(["'=cmd|' /C calc'!A0", "'+SUM(A1:A9)", "'-2+3", '\'@HYPERLINK("http://x","y")', "' =1+1", "' foo"]);
  });

  it('leaves plain numbers as numbers, negative ones too', async () => {
    const rows = await csvOf([{ amount: '-4.00', n: -12, fees: '+3', plain: '10.50', date: '2026-03-01' }]);
    expect(rows[1]).toEqual(['-4.00', '-12', '+3', '10.50', '2026-03-01']);
  });

  it('removes escape sequences and control characters from every cell, header too', async () => {
    const rows = await csvOf([{ 'name\x1b[2J': 'Maria \x1b[31mRed\x1b[0m\x07\x00 \x1b]0;title\x07Silva\x7f\x9b1m\x85' }]);
    expect(rows).toEqual([['name'], ['Maria Red Silva']]);
  });

  it('removes an escape sequence that hid a formula, then prefixes it', async () => {
    const rows = await csvOf([{ d: '\x1b[8m=HYPERLINK("http://x")' }]);
    expect(rows[1]).toEqual(['\'=HYPERLINK("http://x")']);
  });

  it('--csv-raw writes formulas as they are; control characters still go', async () => {
    const rows = await csvOf([...FORMULAS.map((d) => ({ d })), { d: '=1\x1b[31m+1' }], { csvRaw: true });
    expect(rows.slice(1).map((r) => r[0])).toEqual(["=cmd|' /C calc'!A0", '+SUM(A1:A9)', '-2+3', '@HYPERLINK("http://x","y")', ' =1+1', ' foo', '=1+1']);
  });
});
