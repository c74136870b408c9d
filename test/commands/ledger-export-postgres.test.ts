import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { currentOwner } from '../../src/platform/owner.js';
import { it } from '../helpers/fixtures.js';
import { freshDatabase, postgresForFile } from '../helpers/postgres.js';
import { expectJson, run } from './helpers.js';

// `payctl ledger export` of a team's shared ledger (PostgreSQL, started for this file): the same
// records, pages and names as the SQLite one, read by id from the database.
const postgres = postgresForFile();
const holder = currentOwner().holder;

describe('payctl ledger export, shared ledger', () => {
  it('every intent of the account, oldest first, over more than one page, with who moved it', async ({ home }) => {
    const env = { PAYCTL_LEDGER_URL: await freshDatabase(postgres()) };
    expect((await run(home, ['config', 'set', 'operator_name', 'Ana Souza'])).code).toBe(0);
    expectJson(await run(home, ['sandbox', 'generate', '--sales', '400', '--days', '1', '-o', 'json']));
    const listed = await run(home, ['transactions', 'list', '--all', '--payment-type', 'credit', '--status', 'succeeded', '-o', 'ndjson']);
    const ids = listed.stdout.trimEnd().split('\n').map((line) => JSON.parse(line).id as string).slice(0, 230);
    expect(ids).toHaveLength(230);
    writeFileSync(join(home, 'nov.csv'), `id,amount\n${ids.map((id) => `${id},0.50`).join('\n')}\n`);
    const bulk = await run(home, ['transactions', 'refund', '--file', join(home, 'nov.csv'), '--yes', '-q'], { env });
    expect(bulk.code, bulk.stderr).toBe(0);

    const exported = await run(home, ['ledger', 'export'], { env });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toMatch(/^exported 230 records of the ledger postgres:\/\/.* to stdout\n$/);
    const records = exported.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const numbers = records.map((r) => r.id as number);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(new Set(numbers).size).toBe(230);
    expect(new Set(records.map((r) => r.target))).toEqual(new Set(ids));
    expect(records.every((r) => r.kind === 'intent' && r.amount === '0.50' && r.amount_cents === 50 && r.state === 'applied' && r.holder === holder && r.operator_name === 'Ana Souza' && r.batch_name === 'nov.csv')).toBe(true);

    const csv = await run(home, ['ledger', 'export', '--format', 'csv', '--since', '1h'], { env });
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.trimEnd().split('\n')).toHaveLength(231);
    // This machine's SQLite ledger holds none of them.
    expect((await run(home, ['ledger', 'export'])).stdout).toBe('');
  });
});
