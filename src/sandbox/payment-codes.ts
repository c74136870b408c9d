import { randomDigits } from './ids.js';

// Boleto barcodes and PIX codes built to the real formats (FEBRABAN barcode with its mod-11
// check digit, EMV BR Code with its CRC16), so clients that parse or validate them can be tested
// against the sandbox.

const FACTOR_BASE = Date.UTC(1997, 9, 7);

/** FEBRABAN due-date factor: days since 1997-10-07, restarting at 1000 after 9999 (2025-02-22). */
function dueDateFactor(due: Date): string {
  const days = Math.floor((due.getTime() - FACTOR_BASE) / 86_400_000);
  const factor = days < 1000 ? days : ((days - 1000) % 9000) + 1000;
  return String(Math.max(factor, 0)).padStart(4, '0');
}

function mod11(digits: string): string {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    sum += (digits.charCodeAt(i) - 48) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const dv = 11 - (sum % 11);
  return dv === 0 || dv >= 10 ? '1' : String(dv);
}

function mod10(digits: string): string {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    const product = (digits.charCodeAt(i) - 48) * weight;
    sum += product > 9 ? product - 9 : product;
    weight = weight === 2 ? 1 : 2;
  }
  return String((10 - (sum % 10)) % 10);
}

/** 44-digit barcode: bank, currency 9, check digit, due factor, amount, 25-digit free field. */
export function boletoBarcode(bankCode: string, amountCents: number, due: Date): string {
  const amount = String(Math.min(amountCents, 9_999_999_999)).padStart(10, '0');
  const withoutDv = `${bankCode}9${dueDateFactor(due)}${amount}${randomDigits(25)}`;
  return `${withoutDv.slice(0, 4)}${mod11(withoutDv)}${withoutDv.slice(4)}`;
}

/** The 47-digit "linha digitável" printed on the boleto, derived from its barcode. */
export function digitableLine(barcode: string): string {
  const free = barcode.slice(19);
  const f1 = `${barcode.slice(0, 4)}${free.slice(0, 5)}`;
  const f2 = free.slice(5, 15);
  const f3 = free.slice(15, 25);
  const p1 = `${f1}${mod10(f1)}`;
  const p2 = `${f2}${mod10(f2)}`;
  const p3 = `${f3}${mod10(f3)}`;
  return `${p1.slice(0, 5)}.${p1.slice(5)} ${p2.slice(0, 5)}.${p2.slice(5)} ${p3.slice(0, 5)}.${p3.slice(5)} ${barcode[4]} ${barcode.slice(5, 19)}`;
}

function tlv(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** Dynamic PIX "copia e cola" (EMV BR Code) pointing at a payload location. */
export function pixEmv(location: string, amount: string, merchantName: string, merchantCity: string): string {
  const ascii = (s: string, max: number) =>
    s
      .normalize('NFD')
      .replace(/[^\x20-\x7e]/g, '')
      .toUpperCase()
      .slice(0, max);
  const body =
    tlv('00', '01') +
    tlv('01', '12') +
    tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('25', location)) +
    tlv('52', '0000') +
    tlv('53', '986') +
    tlv('54', amount) +
    tlv('58', 'BR') +
    tlv('59', ascii(merchantName, 25)) +
    tlv('60', ascii(merchantCity, 15)) +
    tlv('62', tlv('05', '***')) +
    '6304';
  return body + crc16(body);
}
