import * as z from 'zod/mini';
import { anyObject, looseObject, metadata, resourceId, text } from './shared.js';

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
  first_name: text,
  last_name: text,
  email: text,
  taxpayer_id: text,
  phone_number: text,
  birthdate: text,
  description: text,
  address: addressSchema,
  default_credit: text,
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
