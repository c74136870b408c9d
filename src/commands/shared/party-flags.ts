import type { Command } from 'commander';
import { collect } from './input.js';

/** The flags buyers and sellers share after their own: a description, the postal address and metadata. */
export function addAddressFlags(command: Command): Command {
  return command
    .option('--description <text>', 'free-text description')
    .option('--address-line1 <text>', 'street')
    .option('--address-line2 <text>', 'number and complement')
    .option('--neighborhood <text>', 'neighborhood')
    .option('--city <text>', 'city')
    .option('--state <UF>', 'state, two letters')
    .option('--postal-code <CEP>', 'postal code, 8 digits')
    .option('--metadata <key=value>', 'metadata entry (repeatable)', collect);
}
