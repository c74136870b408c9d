import { flag } from '../verb.js';
import { METADATA_FLAG } from './common-flags.js';

/** The flags buyers and sellers share after their own: a description, the postal address and metadata. */
export const ADDRESS_FLAGS = {
  description: flag('--description <text>', 'free-text description'),
  addressLine1: flag('--address-line1 <text>', 'street'),
  addressLine2: flag('--address-line2 <text>', 'number and complement'),
  neighborhood: flag('--neighborhood <text>', 'neighborhood'),
  city: flag('--city <text>', 'city'),
  state: flag('--state <UF>', 'state, two letters'),
  postalCode: flag('--postal-code <CEP>', 'postal code, 8 digits'),
  metadata: METADATA_FLAG,
};
