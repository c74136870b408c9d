// Start-up cost: the Parquet writer loads only for `export --format parquet`, never for help, the
// other formats or any other command.
import { join } from 'node:path';
import { describe, expect, vi } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { expectJson, run } from './helpers.js';

const loaded = vi.hoisted(() => new Set<string>());

vi.mock('hyparquet-writer', async (importOriginal) => {
  loaded.add('hyparquet-writer');
  return importOriginal();
});

describe('the Parquet writer', () => {
  it('is loaded only when an export asks for Parquet', async ({ home }) => {
    expect((await run(home, ['export', '--help'])).code).toBe(0);
    expect((await run(home, ['--help'])).code).toBe(0);
    expectJson(await run(home, ['transactions', 'list', '-o', 'json']));
    for (const format of ['ndjson', 'csv']) {
      expect((await run(home, ['export', 'transactions', '--format', format, '--out', join(home, `t.${format}`)])).code).toBe(0);
    }
    expect([...loaded]).toEqual([]);
    expect((await run(home, ['export', 'transactions', '--format', 'parquet', '--out', join(home, 't.parquet')])).code).toBe(0);
    expect([...loaded]).toEqual(['hyparquet-writer']);
  });
});
