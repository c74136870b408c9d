import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseSync } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/run.js';
import { expectJson, expectUsage, present, run } from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

// CSV for a pt-BR spreadsheet: `;` between cells, decimal commas, local date-times without a T,
// a BOM. Read back here as a pt-BR spreadsheet would (csv-parse with `;`, numbers with a decimal
// comma), and compared with the JSON of the same list.
let home: { home: string; cleanup: () => void };
let sales: Transaction[];
const SP = { TZ: 'America/Sao_Paulo' };

beforeAll(async () => {
  home = tempHome();
  expect((await run(home.home, ['sandbox', 'generate', '--sales', '60', '--days', '3', '-q'])).code).toBe(0);
  sales = expectJson(await run(home.home, ['transactions', 'list', '--all', '-o', 'json']));
}, 120_000);
afterAll(() => home.cleanup());

/** A decimal-comma number as a pt-BR spreadsheet reads it (no thousands separator is written). */
const ptNumber = (cell: string) => {
  expect(cell).toMatch(/^-?\d+,\d\d$/);
  return Number(cell.replace(',', '.'));
};
const localStamp = (iso: string) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(new Date(iso));

function readPtBr(text: string): Array<Record<string, string>> {
  expect(text.startsWith('\uFEFF')).toBe(true);
  return parseSync(text.slice(1), { delimiter: ';', columns: true }) as Array<Record<string, string>>;
}

describe('--csv-locale pt-BR', () => {
  it('-o csv: ; between cells, amounts as decimal-comma numbers, local date-times, a BOM', async () => {
    const result = await run(home.home, ['transactions', 'list', '--all', '-o', 'csv', '--csv-locale', 'pt-BR', '--fields', 'id,amount,fees,description,created_at'], { env: SP });
    expect(result.code, result.stderr).toBe(0);
    const rows = readPtBr(result.stdout);
    expect(rows).toHaveLength(sales.length);
    const byId = new Map(sales.map((s) => [s.id as string, s]));
    let cents = 0;
    for (const row of rows) {
      const sale = present(byId.get(row.id as string), `the sale of row ${row.id}`);
      expect(ptNumber(row.amount as string)).toBe(Number(sale.amount));
      expect(ptNumber(row.fees as string)).toBe(Number(sale.fees));
      expect(row.description).toBe(sale.description);
      expect(row.created_at).toBe(localStamp(sale.created_at as string));
      cents += Math.round(ptNumber(row.amount as string) * 100);
    }
    expect(cents).toBe(sales.reduce((total, s) => total + Math.round(Number(s.amount) * 100), 0));
  });

  it('export --format csv the same, from the profile setting; none (the default) stays machine-readable', async () => {
    expect((await run(home.home, ['config', 'set', 'csv_locale', 'pt-BR'])).code).toBe(0);
    try {
      const out = join(home.home, 'tx.csv');
      const result = await run(home.home, ['export', 'transactions', '--format', 'csv', '--out', out], { env: SP });
      expect(result.code, result.stderr).toBe(0);
      const rows = readPtBr(readFileSync(out, 'utf8'));
      expect(rows).toHaveLength(sales.length);
      for (const row of rows) {
        expect(Number.isFinite(ptNumber(row.amount as string))).toBe(true);
        expect(row.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      }
      // --csv-locale none wins over the profile.
      const machine = await run(home.home, ['transactions', 'list', '--limit', '3', '-o', 'csv', '--csv-locale', 'none', '--fields', 'amount,created_at']);
      expect(machine.stdout.startsWith('amount,created_at\n')).toBe(true);
      expect(machine.stdout.split('\n')[1]).toMatch(/^\d+\.\d\d,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    } finally {
      expect((await run(home.home, ['config', 'unset', 'csv_locale'])).code).toBe(0);
    }
    const plain = await run(home.home, ['transactions', 'list', '--limit', '1', '-o', 'csv', '--fields', 'amount']);
    expect(plain.stdout).toMatch(/^amount\n\d+\.\d\d\n$/);
  });

  it('an unknown locale is exit 2, as a flag and as a setting', async () => {
    expectUsage(await run(home.home, ['transactions', 'list', '-o', 'csv', '--csv-locale', 'fr-FR']), '--csv-locale: "fr-FR" is not a CSV locale; use pt-BR');
    expectUsage(await run(home.home, ['config', 'set', 'csv_locale', 'excel']), 'csv_locale: "excel" is not a CSV locale');
  });

  it('a negative amount stays a number, not a formula', async () => {
    const result = await run(home.home, ['balances', 'history', '--all', '-o', 'csv', '--csv-locale', 'pt-BR', '--fields', 'operation,amount'], { env: SP });
    expect(result.code, result.stderr).toBe(0);
    const rows = readPtBr(result.stdout);
    const debits = rows.filter((r) => (r.amount as string).startsWith('-'));
    expect(debits.length).toBeGreaterThan(0);
    for (const row of debits) expect(ptNumber(row.amount as string)).toBeLessThan(0);
  });
});
