import { getBoletoInfo, getPixPayloadInfo, isValidBoleto, isValidPixPayload } from '@brazilian-utils/brazilian-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_BUYER_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { SandboxError } from '../../src/sandbox/errors.js';
import { boletoBarcode, digitableLine, pixEmv } from '../../src/sandbox/payment-codes.js';
import type { PaymentMethod } from '../../src/sandbox/types.js';
import { expectAnswer, freshSandbox, ref, type Client, type Fresh } from './helpers.js';

// The boleto and PIX codes the sandbox hands out are read back with @brazilian-utils/brazilian-utils,
// the way a client of the real service would check them: valid, and carrying the amount, due
// date and location of the transaction.

/** The calendar date of a Date the library built (it answers local midnight). */
function localDay(date: Date | null | undefined): string | undefined {
  if (!date) return undefined;
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** The linha digitável's digits put back in barcode order: bank+currency, DV, factor+amount, free field. */
function barcodeOf(line: string): string {
  const d = line.replace(/\D/g, '');
  return `${d.slice(0, 4)}${d[32]}${d.slice(33, 47)}${d.slice(4, 9)}${d.slice(10, 20)}${d.slice(21, 31)}`;
}

const utcDay = (iso: string) => new Date(`${iso}T00:00:00.000Z`);

describe('boletoBarcode and digitableLine', () => {
  it.each([
    ['2026-11-25', 2500],
    ['2026-11-25', 1],
    ['2025-02-21', 123_456], // the last day of the first factor cycle (9999)
    ['2025-02-22', 99_99], // the first day of the second (1000)
    ['2030-01-31', 9_999_999_999], // the largest amount the field holds
    ['2049-12-31', 100_000],
  ])('due %s, %d cents: the library validates it and reads the amount and due date back', (due, cents) => {
    for (let i = 0; i < 20; i++) {
      const barcode = boletoBarcode('001', cents, utcDay(due));
      expect(barcode).toMatch(/^0019\d{40}$/);
      const line = digitableLine(barcode);
      expect(line).toMatch(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
      expect(barcodeOf(line)).toBe(barcode);
      expect(isValidBoleto(line)).toBe(true);
      expect(isValidBoleto(line.replace(/\D/g, ''))).toBe(true);
      const info = getBoletoInfo(line, { referenceDate: utcDay(due) });
      expect(info).toMatchObject({ amount: cents, bankCode: '001' });
      expect(localDay(info?.expirationDate)).toBe(due);
    }
  });

  it('a wrong digit in a field, or in the check digit, is caught by the library', () => {
    const line = digitableLine(boletoBarcode('001', 2500, utcDay('2026-11-25'))).replace(/\D/g, '');
    // Each of the first three fields has its own módulo 10 digit, which catches any change in it,
    // and position 32 is the barcode's check digit itself. The due factor and amount (33–46) are
    // covered only by the módulo 11 digit, which by the FEBRABAN rule writes remainders 0 and 1
    // alike as 1, so one changed digit there goes unnoticed for some free fields (random here).
    for (const at of [0, 4, 9, 10, 15, 20, 26, 31, 32]) {
      const changed = `${line.slice(0, at)}${(Number(line[at]) + 1) % 10}${line.slice(at + 1)}`;
      expect(isValidBoleto(changed), `digit ${at}`).toBe(false);
    }
  });
});

describe('pixEmv', () => {
  const location = 'sandbox.payctl.invalid/pix/qr/v2/0b5f1a0e-9d3c-4a55-8f33-0e7d1d2e4c11';

  it('builds a dynamic BR Code the library validates and reads back', () => {
    const emv = pixEmv(location, 'Loja Sandbox Ltda', 'São Paulo');
    expect(emv).toMatch(/^000201010212.*5802BR.*6304[0-9A-F]{4}$/);
    expect(isValidPixPayload(emv)).toBe(true);
    expect(getPixPayloadInfo(emv)).toEqual({ url: location, merchantName: 'LOJA SANDBOX LTDA', merchantCity: 'SAO PAULO', pointOfInitiation: 'dynamic' });
    // A broken CRC is not a BR Code.
    expect(isValidPixPayload(`${emv.slice(0, -1)}${emv.endsWith('0') ? '1' : '0'}`)).toBe(false);
  });

  it('folds the merchant to ASCII and truncates it to the BR Code limits', () => {
    const info = getPixPayloadInfo(pixEmv(location, 'Padaria Pão de Açúcar e Confeitaria Ltda', 'Santo Antônio de Jesus'));
    expect(info).toMatchObject({ merchantName: 'PADARIA PAO DE ACUCAR E C', merchantCity: 'SANTO ANTONIO D' });
  });

  it('a code the library refuses to build is an internal error, not a bad code', () => {
    for (const [loc, name] of [
      [`https://${location}`, 'Loja'],
      [`${location}/${'x'.repeat(20)}`, 'Loja'],
      [location, '東京'],
    ] as const) {
      let caught: unknown;
      try {
        pixEmv(loc, name, 'SAO PAULO');
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(SandboxError);
      expect((caught as SandboxError).httpStatus).toBe(500);
      expect((caught as SandboxError).message).toMatch(/^Sandbox internal error: could not build the PIX BR Code/);
    }
  });
});

describe('through the sandbox API', () => {
  const NOW = new Date('2026-11-22T10:00:00.000Z');
  let fresh: Fresh;
  let api: Client;

  beforeAll(async () => {
    fresh = await freshSandbox(() => NOW);
    api = fresh.api;
  });
  afterAll(async () => {
    await fresh.close();
  });

  /** A sale of `paymentType`, and its payment method, checked to be of that kind. */
  async function create<K extends 'boleto' | 'bolepix' | 'pix'>(paymentType: K, amount: number, extra: Record<string, unknown> = {}) {
    const body = { payment_type: paymentType, on_behalf_of: SANDBOX_SELLER_ID, amount, currency: 'BRL', reference_id: ref(paymentType), ...extra };
    const txn = expectAnswer(await api.post('/v1/transactions', body), 201, transactionStrict);
    const pm = txn.payment_method;
    if (pm.resource !== paymentType) throw new Error(`a ${paymentType} sale paid by ${pm.resource}`);
    return { ...txn, payment_method: pm as Extract<PaymentMethod, { resource: K }> };
  }

  it('boleto: the barcode, as a linha digitável, carries the amount and the expiration date', async () => {
    const txn = await create('boleto', 4321, { customer: SANDBOX_BUYER_ID, payment_method: { expiration_date: '2026-12-07' } });
    const line = digitableLine(txn.payment_method.barcode);
    expect(isValidBoleto(line)).toBe(true);
    const info = getBoletoInfo(line, { referenceDate: NOW });
    expect(info).toMatchObject({ amount: 4321, bankCode: txn.payment_method.bank_code });
    expect(localDay(info?.expirationDate)).toBe('2026-12-07');
  });

  it('bolepix: barcode, linha digitável and PIX code all check out', async () => {
    const txn = await create('bolepix', 150_000, { customer: SANDBOX_BUYER_ID, payment_method: { due_at: '2026-11-30' } });
    const pm = txn.payment_method;
    expect(pm.digitable_line).toBe(digitableLine(pm.barcode));
    expect(barcodeOf(pm.digitable_line)).toBe(pm.barcode);
    expect(isValidBoleto(pm.digitable_line)).toBe(true);
    const info = getBoletoInfo(pm.digitable_line, { referenceDate: NOW });
    expect(info?.amount).toBe(150_000);
    expect(localDay(info?.expirationDate)).toBe('2026-11-30');
    expect(isValidPixPayload(pm.emv)).toBe(true);
    expect(getPixPayloadInfo(pm.emv)).toMatchObject({ url: expect.stringMatching(/^sandbox\.payctl\.invalid\/pix\/qr\/v2\/[0-9a-f-]{36}$/), pointOfInitiation: 'dynamic' });
  });

  it('pix: the QR code is a dynamic BR Code pointing at the pix_link; the amount is served there, not in the code', async () => {
    const txn = await create('pix', 2500);
    const emv = txn.payment_method.qr_code.emv;
    expect(isValidPixPayload(emv)).toBe(true);
    const info = getPixPayloadInfo(emv);
    expect(info).toMatchObject({ url: txn.payment_method.pix_link.replace(/^https:\/\//, ''), merchantName: 'LOJA SANDBOX LTDA', merchantCity: 'SAO PAULO', pointOfInitiation: 'dynamic' });
    expect(info?.amount).toBeUndefined();
    expect(txn.amount).toBe('25.00');
  });
});
