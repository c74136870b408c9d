import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { currentOwner } from '../../src/platform/owner.js';
import { openSqlite } from '../../src/platform/sqlite.js';
import { it } from '../helpers/fixtures.js';
import { parse } from '../helpers/csv.js';
import { expectJson, expectUsage, present, run } from './helpers.js';

// `payctl ledger export`: the whole trail of an account's ledger for an auditor, oldest first,
// read page by page (a page is 200 records: several hundred intents take several pages).
const holder = currentOwner().holder;
const HEADER = 'kind,id,created_at,updated_at,operation,target,key,requested_cents,requested,amount_cents,amount,state,detail,proof,batch,batch_name,row,holder,operator_name,pid,agent,session';
const DAY_MS = 86_400_000;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** `count` sales of the sandbox refunded R$ 1,00 each in one bulk run from `file`: `count` intents. */
async function refunded(home: string, count: number, file: string): Promise<string[]> {
  expectJson(await run(home, ['sandbox', 'generate', '--sales', String(Math.ceil(count * 1.6)), '--days', '1', '-o', 'json']));
  const listed = await run(home, ['transactions', 'list', '--all', '--payment-type', 'credit', '--status', 'succeeded', '-o', 'ndjson']);
  expect(listed.code, listed.stderr).toBe(0);
  const ids = listed.stdout.trimEnd().split('\n').map((line) => JSON.parse(line).id as string).slice(0, count);
  expect(ids).toHaveLength(count);
  writeFileSync(join(home, file), `id,amount\n${ids.map((id) => `${id},1.00`).join('\n')}\n`);
  const bulk = await run(home, ['transactions', 'refund', '--file', join(home, file), '--yes', '-q']);
  expect(bulk.code, bulk.stderr).toBe(0);
  return ids;
}

/** Moves the first `count` intents `days` back in time, as if written then. */
async function backdate(home: string, count: number, days: number): Promise<void> {
  const db = await openSqlite(join(home, 'state', 'ledger', 'ledger.sqlite'));
  db.prepare('UPDATE payctl_intents SET created_at = created_at - ?, updated_at = updated_at - ? WHERE id <= ?').run(days * DAY_MS, days * DAY_MS, count);
  db.close();
}

describe('payctl ledger export', () => {
  it('every intent, oldest first, in CSV and NDJSON, with who moved it; --since as ledger list reads it; formulas defused', async ({ home }) => {
    // A name a spreadsheet would run as a formula: the file must show it as text.
    expect((await run(home, ['config', 'set', 'operator_name', '=1+2 Ana'])).code).toBe(0);
    const ids = await refunded(home, 450, '@nov.csv');
    await backdate(home, 150, 3);

    const ndjson = await run(home, ['ledger', 'export']);
    expect(ndjson.code, ndjson.stderr).toBe(0);
    expect(ndjson.stderr).toMatch(/^exported 450 records of the ledger .*ledger\.sqlite to stdout\n$/);
    const records = ndjson.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.map((r) => r.id)).toEqual(Array.from({ length: 450 }, (_, i) => i + 1));
    // Each row of the file once, with its row number (the run's workers claim rows in their own order).
    expect(records.map((r) => [r.row, r.target]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual(ids.map((id, i) => [i + 1, id]));
    const times = records.map((r) => Date.parse(r.created_at as string));
    expect(times.slice(150)).toEqual([...times.slice(150)].sort((a, b) => a - b));
    const target = records[0]!.target as string;
    expect(records[0]).toEqual({
      kind: 'intent',
      id: 1,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      operation: 'transactions.void',
      target,
      key: `transaction:${target}`,
      requested_cents: 100,
      requested: '1.00',
      amount_cents: 100,
      amount: '1.00',
      state: 'applied',
      detail: null,
      proof: expect.any(String),
      batch: expect.any(String),
      batch_name: '@nov.csv',
      row: ids.indexOf(target) + 1,
      holder,
      operator_name: '=1+2 Ana',
      pid: process.pid,
      agent: null,
      session: null,
    });
    expect(Date.now() - Date.parse(records[0]!.created_at as string)).toBeGreaterThan(3 * DAY_MS - 60_000);

    // --since: 2d back leaves out the 150 written three days ago; a day is its start in the zone shown (UTC here).
    const recent = await run(home, ['ledger', 'export', '--since', '2d']);
    expect(recent.stdout.trimEnd().split('\n').map((line) => JSON.parse(line).id)).toEqual(Array.from({ length: 300 }, (_, i) => i + 151));
    const threeDaysAgo = new Date(Date.now() - 3 * DAY_MS).toISOString().slice(0, 10);
    expect((await run(home, ['ledger', 'export', '--since', threeDaysAgo])).stdout.trimEnd().split('\n')).toHaveLength(450);
    const tomorrow = new Date(Date.now() + DAY_MS).toISOString().slice(0, 10);
    const none = await run(home, ['ledger', 'export', '--since', tomorrow]);
    expect([none.code, none.stdout, none.stderr]).toEqual([0, '', expect.stringContaining('exported 0 records of the ledger')]);

    // CSV to a file: the same records, the name and the batch's name defused with a leading '.
    const out = join(home, 'trail.csv');
    const csv = await run(home, ['ledger', 'export', '--format', 'csv', '--since', '2d', '--out', out]);
    expect([csv.code, csv.stdout], csv.stderr).toEqual([0, '']);
    expect(csv.stderr).toContain(`exported 300 records of the ledger`);
    expect(existsSync(`${out}.partial`)).toBe(false);
    const text = readFileSync(out, 'utf8');
    expect(text.split('\n')[0]).toBe(HEADER);
    const rows = parse(text);
    expect(rows).toHaveLength(301);
    const first = Object.fromEntries(HEADER.split(',').map((column, i) => [column, rows[1]![i]]));
    const row151 = present(records[150], 'record 151');
    expect(first).toMatchObject({ kind: 'intent', id: '151', operation: 'transactions.void', target: row151.target, requested_cents: '100', requested: '1.00', amount: '1.00', state: 'applied', detail: '', batch_name: "'@nov.csv", row: String(row151.row), holder, operator_name: "'=1+2 Ana" });
    expect(first.created_at).toMatch(ISO);

    // --csv-locale pt-BR: ; between cells, decimal commas, local times, a BOM; still defused.
    const br = await run(home, ['ledger', 'export', '--format', 'csv', '--csv-locale', 'pt-BR', '--since', '2d']);
    expect(br.stdout.startsWith(`\uFEFF${HEADER.replaceAll(',', ';')}\n`)).toBe(true);
    expect(br.stdout.split('\n')[1]).toMatch(new RegExp(`^intent;151;\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d;.*;100;1,00;100;1,00;applied;;.*;'@nov\\.csv;${row151.row};${holder};'=1\\+2 Ana;\\d+;;$`));
  }, 20_000);

  it('refuses a flag it cannot read and an --out it cannot write, naming it (exit 2)', async ({ home }) => {
    expectUsage(await run(home, ['ledger', 'export', '--format', 'parquet']), '--format: "parquet" is not a format of the ledger\'s export; use ndjson or csv');
    expectUsage(await run(home, ['ledger', 'export', '--since', 'last week']), '--since');
    expectUsage(await run(home, ['ledger', 'export', '--fields', 'id']), '--fields');
    expectUsage(await run(home, ['ledger', 'export', '--out', home]), `--out: cannot write ${home} (it is a directory)`);
  });
});
