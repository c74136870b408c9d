import { describe, expect, it } from 'vitest';
import { renderList, renderObject } from '../../src/output/render.js';
import { Collector, options, pagesOf, transaction } from './helpers.js';

describe('json', () => {
  it('prints one object pretty, field names unchanged, with a final newline', async () => {
    const out = new Collector();
    const tx = transaction(1);
    await renderObject(tx, options('json', out));
    expect(out.text).toBe(`${JSON.stringify(tx, null, 2)}\n`);
  });

  it('writes a list over 3 pages as one array of the concatenated items', async () => {
    const out = new Collector();
    const pages = [[transaction(1), transaction(2)], [transaction(3)], [transaction(4), transaction(5)]];
    const count = await renderList(pagesOf(...pages), options('json', out));
    expect(count).toBe(5);
    expect(JSON.parse(out.text)).toEqual(pages.flat());
    // Byte for byte what JSON.stringify of the whole array would print.
    expect(out.text).toBe(`${JSON.stringify(pages.flat(), null, 2)}\n`);
  });

  it.each([[[]], [[[]]], [[[], []]]])('prints [] for an empty list (%j)', async (pages) => {
    const out = new Collector();
    expect(await renderList(pagesOf(...pages), options('json', out))).toBe(0);
    expect(out.text).toBe('[]\n');
    expect(JSON.parse(out.text)).toEqual([]);
  });

  it('stays valid JSON with empty pages between full ones', async () => {
    const out = new Collector();
    await renderList(pagesOf([], [transaction(1)], [], [transaction(2)], []), options('json', out));
    expect(JSON.parse(out.text).map((t: { id: string }) => t.id)).toEqual(['tx_1', 'tx_2']);
  });

  it('keeps odd values valid JSON (strings with newlines and quotes, nulls, numbers)', async () => {
    const out = new Collector();
    const items = [{ a: 'line\n"quoted"\u2028' }, null, 3, 'text', [1, [2]]];
    await renderList(pagesOf(items.slice(0, 2), items.slice(2)), options('json', out));
    expect(JSON.parse(out.text)).toEqual(items);
  });

  it('applies --fields to an object, in the order given', async () => {
    const out = new Collector();
    await renderObject(transaction(1), options('json', out, { fields: ['status', 'id', 'payment_method.card_brand', 'nope'] }));
    const parsed = JSON.parse(out.text);
    expect(parsed).toEqual({ status: 'succeeded', id: 'tx_1', payment_method: { card_brand: 'Visa' } });
    expect(Object.keys(parsed)).toEqual(['status', 'id', 'payment_method']);
  });

  it('applies --fields to every item of a list', async () => {
    const out = new Collector();
    await renderList(pagesOf([transaction(1)], [transaction(2)]), options('json', out, { fields: ['id', 'amount'] }));
    expect(JSON.parse(out.text)).toEqual([
      { id: 'tx_1', amount: '1234.56' },
      { id: 'tx_2', amount: '1234.56' },
    ]);
  });

  it('keeps amounts and dates exactly as the API gave them', async () => {
    const out = new Collector();
    await renderObject({ amount: '1234.5', created_at: '2026-03-01T12:34:56+00:00' }, options('json', out));
    expect(out.text).toContain('"amount": "1234.5"');
    expect(out.text).toContain('"created_at": "2026-03-01T12:34:56+00:00"');
  });

  it('renders a bare array like a one-page list', async () => {
    const out = new Collector();
    await renderObject([{ id: 'a' }, { id: 'b' }], options('json', out));
    expect(JSON.parse(out.text)).toEqual([{ id: 'a' }, { id: 'b' }]);
  });

  it('writes each page before pulling the next one', async () => {
    const out = new Collector();
    const seenBeforePull: string[] = [];
    async function* pages(): AsyncIterable<unknown[]> {
      yield [transaction(1)];
      seenBeforePull.push(out.text);
      yield [transaction(2)];
      seenBeforePull.push(out.text);
      yield [transaction(3)];
    }
    await renderList(pages(), options('json', out));
    expect(seenBeforePull[0]).toContain('"tx_1"');
    expect(seenBeforePull[1]).toContain('"tx_2"');
    expect(seenBeforePull[1]).not.toContain('"tx_3"');
  });

  it('does not close the array when paging fails half way', async () => {
    const out = new Collector();
    async function* pages(): AsyncIterable<unknown[]> {
      yield [transaction(1)];
      throw new Error('network down');
    }
    await expect(renderList(pages(), options('json', out))).rejects.toThrow('network down');
    expect(out.text.startsWith('[\n')).toBe(true);
    expect(() => JSON.parse(out.text)).toThrow();
  });
});

describe('ndjson', () => {
  it('prints one compact line per item across pages', async () => {
    const out = new Collector();
    const pages = [[transaction(1), transaction(2)], [], [transaction(3)]];
    expect(await renderList(pagesOf(...pages), options('ndjson', out))).toBe(3);
    const lines = out.text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => JSON.parse(l))).toEqual(pages.flat());
    expect(lines[0]).toBe(JSON.stringify(transaction(1)));
  });

  it('keeps newlines inside values escaped', async () => {
    const out = new Collector();
    await renderList(pagesOf([{ d: 'a\nb' }, { d: 'c' }]), options('ndjson', out));
    expect(out.text.split('\n')).toHaveLength(3);
  });

  it('prints a single object as one line', async () => {
    const out = new Collector();
    await renderObject(transaction(1), options('ndjson', out));
    expect(out.text).toBe(`${JSON.stringify(transaction(1))}\n`);
  });

  it('prints nothing for an empty list', async () => {
    const out = new Collector();
    expect(await renderList(pagesOf([]), options('ndjson', out))).toBe(0);
    expect(out.text).toBe('');
  });

  it('applies --fields', async () => {
    const out = new Collector();
    await renderList(pagesOf([transaction(1)], [transaction(2)]), options('ndjson', out, { fields: ['status', 'id'] }));
    expect(out.text).toBe('{"status":"succeeded","id":"tx_1"}\n{"status":"succeeded","id":"tx_2"}\n');
  });
});

describe('formats', () => {
  it('refuses an unknown format', async () => {
    const out = new Collector();
    await expect(renderObject({}, options('yaml' as never, out))).rejects.toThrow(/unknown output format/);
    await expect(renderList(pagesOf([]), options('yaml' as never, out))).rejects.toThrow(/unknown output format/);
  });
});
