// The totals line under a table: drawn by cli-table3 like the table above it, and cli-table3 is
// loaded only when the line is drawn: the list commands import this module at load time for their
// TotalSpec helpers.
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';

const pipe = new PassThrough();

const loaded = vi.hoisted(() => new Set<string>());

vi.mock('cli-table3', async (importOriginal) => {
  loaded.add('cli-table3');
  return importOriginal();
});

describe('totals', () => {
  it('imports cli-table3 only when the line is drawn, and draws it with it', async () => {
    const { Totals, grossFeesNet, grossNetWithFees } = await import('../../src/output/totals.js');
    grossFeesNet('amount', 'fees');
    grossNetWithFees('amount', 'net');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(loaded.has('cli-table3')).toBe(false);

    const totals = new Totals('transactions', grossFeesNet('amount', 'fees'));
    for (const [amount, fees] of [['1234.56', '36.99'], ['10', '0.5'], ['x', undefined]]) totals.add({ amount, fees });
    expect(loaded.has('cli-table3')).toBe(false);
    expect(await totals.line(pipe)).toBe('3 transactions  gross R$ 1.244,56  fees R$ 37,49  net R$ 1.207,07');
  });

  it('one item is named in the singular', async () => {
    const { Totals, grossFeesNet } = await import('../../src/output/totals.js');
    const one = (noun: string) => {
      const totals = new Totals(noun, grossFeesNet('amount', 'fees'));
      totals.add({ amount: '10.00', fees: '1.00' });
      return totals.line(pipe);
    };
    expect(await one('transactions')).toBe('1 transaction  gross R$ 10,00  fees R$ 1,00  net R$ 9,00');
    expect(await one('future entries')).toMatch(/^1 future entry {2}gross/);
    expect(await one('entries')).toMatch(/^1 entry {2}gross/);
  });

  it('sums negative amounts and counts in pt-BR; no trailing whitespace', async () => {
    const { Totals, grossNetWithFees } = await import('../../src/output/totals.js');
    const totals = new Totals('receivables', grossNetWithFees('amount', 'net'));
    for (let i = 0; i < 1500; i++) totals.add({ amount: '-1.00', net: '-0.99' });
    const line = await totals.line(pipe);
    expect(line).toBe('1.500 receivables  gross -R$ 1.500,00  fees -R$ 15,00  net -R$ 1.485,00');
    expect(line).toBe(line.trimEnd());
    expect(line).not.toContain('\n');
  });

  it('puts one part on a line on a terminal narrower than the line', async () => {
    const { Totals, grossFeesNet } = await import('../../src/output/totals.js');
    const totals = new Totals('transactions', grossFeesNet('amount', 'fees'));
    totals.add({ amount: '1234.56', fees: '36.99' });
    totals.add({ amount: '0', fees: '0' });
    const terminal = (columns: number) => Object.assign(new PassThrough(), { isTTY: true, columns });
    expect(await totals.line(terminal(80))).toBe('2 transactions  gross R$ 1.234,56  fees R$ 36,99  net R$ 1.197,57');
    expect((await totals.line(terminal(40))).split('\n')).toEqual(['2 transactions', 'gross R$ 1.234,56', 'fees R$ 36,99', 'net R$ 1.197,57']);
  });
});
