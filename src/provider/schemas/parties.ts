import * as z from 'zod/mini';
import { anyObject, looseObject, metadata, resourceId, shown, text } from './shared.js';

// The people and companies on either side of a sale: buyers (customers) and sellers.

const addressSchema = z.optional(
  z.nullable(
    looseObject({
      line1: text,
      line2: text,
      line3: text,
      neighborhood: text,
      city: text,
      state: text,
      postal_code: text,
      country_code: text,
    }),
  ),
);

export const buyerSchema = looseObject({
  id: resourceId,
  resource: text,
  status: shown,
  first_name: text,
  last_name: text,
  email: text,
  taxpayer_id: text,
  phone_number: text,
  birthdate: text,
  description: text,
  address: addressSchema,
  delinquent: shown,
  default_credit: text,
  default_debit: shown,
  default_receipt_delivery_method: shown,
  metadata,
  uri: text,
  created_at: text,
  updated_at: text,
});

/** A person (`individual`: name, CPF) or a company (`business`: business name, CNPJ, owner). */
export const sellerSchema = looseObject({
  id: resourceId,
  resource: text,
  type: text,
  status: shown,
  first_name: text,
  last_name: text,
  email: text,
  phone_number: text,
  taxpayer_id: text,
  birthdate: text,
  address: addressSchema,
  business_name: text,
  business_email: text,
  business_phone: text,
  ein: text,
  business_opening_date: text,
  business_address: addressSchema,
  owner: anyObject,
  statement_descriptor: text,
  description: text,
  metadata,
  uri: text,
  created_at: text,
  updated_at: text,
});
