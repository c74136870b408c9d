import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { renderList } from '../../src/output/render.js';
import { lineBatcher, writeOut } from '../../src/output/write.js';
import { Collector, options, transaction } from './helpers.js';

describe('writeOut', () => {
  it('resolves at once while the stream has room', async () => {
    const out = new Collector();
    await writeOut(out, 'abc');
    expect(out.text).toBe('abc');
  });

  it('waits for a full stream to flush before resolving', async () => {
    const out = new Collector({ highWaterMark: 1, delayMs: 20 });
    const started = Date.now();
    await writeOut(out, 'abc');
    expect(out.writableLength).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });

  it('rejects when the reader has gone (closed pipe)', async () => {
    const out = new Writable({
      highWaterMark: 1,
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    out.on('error', () => undefined);
    await expect(writeOut(out, 'abc')).rejects.toThrow('EPIPE');
    await expect(writeOut(out, 'more')).rejects.toThrow();
  });

  it('writes nothing for an empty chunk', async () => {
    const out = new Collector();
    await writeOut(out, '');
    expect(out.chunks).toEqual([]);
  });
});

describe('lineBatcher', () => {
  it('writes the lines of one turn as one chunk, and each turn after the one before', async () => {
    const out = new Collector();
    const write = lineBatcher(out);
    const first = [write('a\n'), write('b\n'), write('c\n')];
    expect(out.chunks).toEqual([]);
    await Promise.all(first);
    await Promise.all([write('d\n'), write('e\n')]);
    await write('f\n');
    expect(out.chunks.map(String)).toEqual(['a\nb\nc\n', 'd\ne\n', 'f\n']);
  });

  it('keeps a writer waiting while a slow reader has not taken its chunk', async () => {
    const out = new Collector({ highWaterMark: 1, delayMs: 20 });
    const write = lineBatcher(out);
    const started = Date.now();
    await write('a\n');
    expect(out.writableLength).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });

  it('rejects every line of a chunk the reader has gone away from', async () => {
    const out = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    out.on('error', () => undefined);
    const write = lineBatcher(out);
    const results = await Promise.allSettled([write('a\n'), write('b\n')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});

describe('streaming into a slow pipe', () => {
  it('pulls a page only after the previous one has been flushed', async () => {
    const out = new Collector({ highWaterMark: 1, delayMs: 5 });
    const backlog: number[] = [];
    async function* pages(): AsyncIterable<unknown[]> {
      for (let p = 0; p < 10; p++) {
        backlog.push(out.writableLength);
        yield [transaction(p)];
      }
    }
    expect(await renderList(pages(), options('ndjson', out))).toBe(10);
    expect(Math.max(...backlog)).toBe(0);
    expect(out.text.trimEnd().split('\n')).toHaveLength(10);
  });

  it('stops pulling pages when the pipe closes', async () => {
    let pulled = 0;
    const out = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    out.on('error', () => undefined);
    async function* pages(): AsyncIterable<unknown[]> {
      for (;;) {
        pulled++;
        yield [transaction(pulled)];
        if (pulled > 1000) return;
      }
    }
    await expect(renderList(pages(), options('json', out))).rejects.toThrow();
    expect(pulled).toBeLessThan(5);
  });
});
