import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/run.js';
import { run } from './helpers.js';

// A list that shows part of what there is says so, and counts are grouped as a Brazilian reader
// groups them (20.005), as money is (R$ 3.834,13).
let home: { home: string; cleanup: () => void };

beforeAll(async () => {
  home = tempHome();
  const generated = await run(home.home, ['sandbox', 'generate', '--sales', '1200', '--days', '5']);
  expect(generated.code, generated.stderr).toBe(0);
  // Status lines count the pt-BR way too.
  expect(generated.stderr).toContain('Trading 1.200 sales over 5 days on the sandbox clock');
  expect(generated.stderr).toMatch(/; 1\.200 transactions, [\d.]+ transfers, [\d.]+ new buyers made\n$/);
}, 120_000);
afterAll(() => home.cleanup());

const table = async (args: string[]) => (await run(home.home, [...args, '-o', 'table'])).stdout.trimEnd().split('\n');

describe('a list cut at --limit', () => {
  it('a table ends with "20 of 1.200 transactions (--all for every one)", the sums of those shown beside it', async () => {
    const lines = await table(['transactions', 'list']);
    expect(lines).toHaveLength(23); // the header, 20 rows, the footer, the zone of the times
    expect(lines.at(-1)).toBe('times in UTC');
    expect(lines.at(-2)).toMatch(/^20 of 1\.200 transactions \(--all for every one\)  gross R\$ [\d.]+,\d\d  fees R\$ [\d.]+,\d\d  net R\$ [\d.]+,\d\d$/);
  });

  it('shown whole (--all, or a limit above the total), it counts them without "of"', async () => {
    expect((await table(['transactions', 'list', '--all'])).at(-2)).toMatch(/^1\.200 transactions  gross R\$ /);
    expect((await table(['transactions', 'list', '--limit', '5000'])).at(-2)).toMatch(/^1\.200 transactions  gross R\$ /);
  });

  it('a list without sums says it on a line of its own; JSON says nothing of it', async () => {
    const transfers = await table(['transfers', 'list', '--limit', '3']);
    expect(transfers.at(-1)).toMatch(/^3 of [\d.]+ transfers \(--all for every one\)/);
    const json = await run(home.home, ['transactions', 'list', '--limit', '3', '-o', 'json']);
    expect(JSON.parse(json.stdout)).toHaveLength(3);
    expect(json.stderr).toBe('');
  });
});
