import { isValidCnpj, isValidCpf, normalizeTaxpayerId } from '../validate/taxpayer.js';
import type { JsonObject } from './http.js';
import { newId } from './ids.js';
import { isoTimestamp } from './time.js';
import type { Address, Buyer, SandboxState } from './types.js';

// The buyer record: documents, addresses and how a buyer is shown. The inline payer of a complete
// boleto is parsed here too, because the provider registers such a payer as a buyer, so the
// transaction's `customer` always names one.

/** What a buyer is registered with: what was given of it (an address in part, or none). */
export type BuyerInput = Pick<Buyer, 'first_name' | 'last_name' | 'email' | 'taxpayer_id' | 'phone_number' | 'birthdate' | 'description' | 'metadata'> & {
  address: Address | null;
};

/**
 * A CPF or CNPJ as people write it ("529.982.247-25", "11.222.333/0001-81", the alphanumeric
 * "12.ABC.345/01DE-35") reduced to its characters (letters upper-cased), or undefined when it is
 * not one: other characters than letters, digits and the usual punctuation, or check digits that
 * do not match. A 14-character id is a CNPJ (a company) whether or not it has letters.
 */
export function parseTaxpayerId(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^[0-9A-Za-z.\-/\s]+$/.test(value)) return undefined;
  const id = normalizeTaxpayerId(value);
  return isValidCpf(id) || isValidCnpj(id) ? id : undefined;
}

export function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** The `keys` a body sends, as kept: trimmed, a blank one (or one not text) null; a key left out is absent. */
export function textsOf<K extends string>(body: Partial<Record<K, unknown>>, keys: readonly K[]): Partial<Record<K, string | null>> {
  const kept: Partial<Record<K, string | null>> = {};
  for (const key of keys) if (body[key] !== undefined) kept[key] = text(body[key]);
  return kept;
}

/**
 * The lines of a buyer's or seller's address as sent (a PUT sends only what changes), the body
 * having met the request schema: each line trimmed, a line sent as null or blank cleared, codes
 * upper-cased, the CEP as its digits; a line left out is absent from the result.
 */
export function addressPatchOf(raw: Partial<Record<keyof Address, unknown>> | null | undefined): Partial<Address> | null | undefined {
  if (raw === undefined || raw === null) return raw;
  const out: Partial<Address> = textsOf(raw, ['line1', 'line2', 'line3', 'neighborhood', 'city', 'state', 'postal_code', 'country_code']);
  if (out.state) out.state = out.state.toUpperCase();
  if (out.postal_code) out.postal_code = out.postal_code.replace(/\D/g, '');
  if (out.country_code) out.country_code = out.country_code.toUpperCase();
  return out;
}

export function emptyAddress(): Address {
  return { line1: null, line2: null, line3: null, neighborhood: null, city: null, state: null, postal_code: null, country_code: null };
}

/** An address with addressPatchOf's patch applied: null clears it, a line left out keeps its value. */
export function patchedAddress(address: Address | null, patch: Partial<Address> | null | undefined): Address | null {
  if (patch === undefined) return address;
  return patch === null ? null : { ...(address ?? emptyAddress()), ...patch };
}

/**
 * The inline payer of a complete boleto, which has met the request schema: a name, a document and,
 * when given, an address with every line a boleto prints. Its country is Brazil unless said.
 */
export function payerInput(raw: JsonObject): BuyerInput {
  const address = raw.address as JsonObject | undefined;
  return {
    first_name: text(raw.first_name) as string,
    last_name: text(raw.last_name),
    email: text(raw.email),
    taxpayer_id: parseTaxpayerId(raw.taxpayer_id) as string,
    phone_number: text(raw.phone_number),
    birthdate: text(raw.birthdate),
    description: null,
    address: address === undefined ? null : { ...emptyAddress(), ...addressPatchOf(address), country_code: text(address.country_code) ?? 'BR' },
    metadata: {},
  };
}

export function registerBuyer(state: SandboxState, input: BuyerInput, now: Date): Buyer {
  const at = isoTimestamp(now);
  const id = newId(state);
  const { first_name: firstName, last_name: lastName, email, taxpayer_id: taxpayerId, phone_number: phone, birthdate, description, address, metadata } = input;
  const buyer: Buyer = {
    id,
    resource: 'buyer',
    status: 'active',
    first_name: firstName,
    last_name: lastName,
    email,
    phone_number: phone,
    taxpayer_id: taxpayerId,
    birthdate,
    description,
    // The provider always sends the address object, its lines null when unknown.
    address: { ...emptyAddress(), ...address },
    delinquent: false,
    default_credit: null,
    default_debit: null,
    default_receipt_delivery_method: null,
    uri: `/v1/marketplaces/${state.marketplace_id}/buyers/${id}`,
    metadata,
    created_at: at,
    updated_at: at,
  };
  state.buyers.put(buyer.id, buyer);
  return buyer;
}

/** One-line postal address, as printed on a boleto. */
export function formatAddress(address: Address | null): string | null {
  if (!address) return null;
  const street = [address.line1, address.line2, address.line3].filter(Boolean).join(', ');
  const area = address.neighborhood ? ` - ${address.neighborhood}` : '';
  const postal = address.postal_code ?? '';
  const cep = /^\d{8}$/.test(postal) ? `${postal.slice(0, 5)}-${postal.slice(5)}` : postal;
  const place = [address.city, address.state].filter(Boolean).join(' - ');
  const line = [`${street}${area}`, place, cep].filter(Boolean).join(', ');
  return line || null;
}
