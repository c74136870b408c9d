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

export const sellerSchema = looseObject({
  id: resourceId,
  resource: text,
  name: text,
  type: text,
  statement_descriptor: text,
  taxpayer_id: text,
  ein: text,
  address: addressSchema,
  business_address: anyObject,
  metadata,
  created_at: text,
  updated_at: text,
});
