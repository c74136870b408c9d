import { isObject } from './http.js';
import { newId } from './ids.js';
import { isoTimestamp, parseCalendarDate } from './time.js';
import type { Address, Buyer } from './types.js';
import type { Checker } from './validate.js';

// The inline payer of a complete boleto. The provider registers such a payer as a buyer, so the
// sandbox does too: the transaction's `customer` then always names a buyer.

export type BuyerInput = Omit<Buyer, 'id' | 'default_credit_card' | 'created_at' | 'updated_at'>;

function checkDigits(digits: string, weights: number[]): number {
  const sum = weights.reduce((acc, w, i) => acc + w * (digits.charCodeAt(i) - 48), 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

export function validCpf(cpf: string): boolean {
  if (!/^\d{11}$/.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return false;
  const d1 = checkDigits(cpf, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = checkDigits(cpf, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return d1 === Number(cpf[9]) && d2 === Number(cpf[10]);
}

export function validCnpj(cnpj: string): boolean {
  if (!/^\d{14}$/.test(cnpj) || /^(\d)\1{13}$/.test(cnpj)) return false;
  const d1 = checkDigits(cnpj, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = checkDigits(cnpj, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return d1 === Number(cnpj[12]) && d2 === Number(cnpj[13]);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function parseAddress(raw: unknown, field: string, check: Checker): Address | null {
  if (raw === undefined || raw === null) return null;
  if (!isObject(raw)) {
    check.add(field, 'must be an object');
    return null;
  }
  const line1 = text(raw.line1);
  const city = text(raw.city);
  const state = text(raw.state);
  const postal = text(raw.postal_code)?.replace(/\D/g, '') ?? '';
  if (!line1) check.add(`${field}.line1`, 'is required');
  if (!city) check.add(`${field}.city`, 'is required');
  if (!state || !/^[A-Za-z]{2}$/.test(state)) check.add(`${field}.state`, 'must be a two-letter state code');
  if (!/^\d{8}$/.test(postal)) check.add(`${field}.postal_code`, 'must be an 8-digit CEP');
  return {
    line1: line1 ?? '',
    line2: text(raw.line2),
    line3: text(raw.line3),
    neighborhood: text(raw.neighborhood),
    city: city ?? '',
    state: (state ?? '').toUpperCase(),
    postal_code: postal,
    country_code: text(raw.country_code) ?? 'BR',
  };
}

export function parseBuyerInput(raw: unknown, field: string, check: Checker): BuyerInput | undefined {
  if (!isObject(raw)) {
    check.add(field, 'must be an object');
    return undefined;
  }
  const before = check.problems.length;
  const firstName = text(raw.first_name);
  const lastName = text(raw.last_name);
  if (!firstName) check.add(`${field}.first_name`, 'is required');
  if (!lastName) check.add(`${field}.last_name`, 'is required');
  const taxpayerId = (text(raw.taxpayer_id) ?? '').replace(/\D/g, '');
  if (!validCpf(taxpayerId) && !validCnpj(taxpayerId)) {
    check.add(`${field}.taxpayer_id`, 'must be a valid CPF or CNPJ');
  }
  const email = text(raw.email);
  if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) check.add(`${field}.email`, 'must be an e-mail address');
  const birthdate = text(raw.birthdate);
  if (birthdate && !parseCalendarDate(birthdate)) check.add(`${field}.birthdate`, 'must be a date (YYYY-MM-DD)');
  const address = parseAddress(raw.address, `${field}.address`, check);
  if (check.problems.length > before) return undefined;
  return {
    first_name: firstName ?? '',
    last_name: lastName ?? '',
    email,
    taxpayer_id: taxpayerId,
    phone_number: text(raw.phone_number),
    birthdate,
    address,
  };
}

export function registerBuyer(buyers: Record<string, Buyer>, input: BuyerInput, now: Date): Buyer {
  const at = isoTimestamp(now);
  const buyer: Buyer = { ...input, id: newId(), default_credit_card: null, created_at: at, updated_at: at };
  buyers[buyer.id] = buyer;
  return buyer;
}

/** One-line postal address, as printed on a boleto. */
export function formatAddress(address: Address | null): string | null {
  if (!address) return null;
  const street = [address.line1, address.line2, address.line3].filter(Boolean).join(', ');
  const area = address.neighborhood ? ` - ${address.neighborhood}` : '';
  const cep = `${address.postal_code.slice(0, 5)}-${address.postal_code.slice(5)}`;
  return `${street}${area}, ${address.city} - ${address.state}, ${cep}`;
}

export function fullName(buyer: { first_name: string; last_name: string }): string {
  return `${buyer.first_name} ${buyer.last_name}`.trim();
}
