// CSV as a spreadsheet in Brazil reads it (`--csv-locale pt-BR`, or the profile's csv_locale):
// `;` between cells, a decimal comma (`352,52`, which a pt-BR Excel or LibreOffice reads as a
// number; `352.52` it reads as a date or text), date-times in the local time zone without the `T`
// (`2026-12-01 09:15:02`), and a UTF-8 byte order mark so Excel reads accents. The default stays
// machine-readable: `,`, the API's own values, no BOM. Applied after a cell is made safe
// (csv.ts): a negative amount is a number there, never a formula.

import { UsageError } from '../errors.js';

export type CsvLocale = 'pt-BR' | 'none';
export const CSV_LOCALES: readonly CsvLocale[] = ['pt-BR', 'none'];

export interface CsvDialect {
  delimiter: string;
  /** Written before the header. */
  bom: string;
  /** A safe cell as this dialect writes it; `kind` when the column's type is known (an export's). */
  cell(text: string, kind?: 'decimal' | 'timestamp' | 'other'): string;
}

const DECIMAL = /^-?\d+\.\d+$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const UTC_MIDNIGHT = /^(\d{4}-\d{2}-\d{2})T00:00(?::00(?:\.0+)?)?(?:Z|\+00:?00)$/i;

const two = (n: number) => String(n).padStart(2, '0');

/** An ISO instant as the local date and time, to the second; a day sent as its UTC midnight stays that day. */
function localDateTime(iso: string): string {
  const midnight = UTC_MIDNIGHT.exec(iso);
  if (midnight) return midnight[1] as string;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`;
}

const MACHINE: CsvDialect = { delimiter: ',', bom: '', cell: (text) => text };

const PT_BR: CsvDialect = {
  delimiter: ';',
  bom: '\uFEFF',
  cell(text, kind) {
    if (kind === 'decimal' || (kind === undefined && DECIMAL.test(text))) return DECIMAL.test(text) ? text.replace('.', ',') : text;
    if (kind === 'timestamp' || (kind === undefined && ISO_INSTANT.test(text))) return ISO_INSTANT.test(text) ? localDateTime(text) : text;
    return text;
  },
};

export function csvDialect(locale: CsvLocale | undefined): CsvDialect {
  return locale === 'pt-BR' ? PT_BR : MACHINE;
}

/** A --csv-locale value or a csv_locale setting, checked. */
export function parseCsvLocale(value: string, source: string): CsvLocale {
  const found = CSV_LOCALES.find((l) => l.toLowerCase() === value.trim().toLowerCase());
  if (found) return found;
  throw new UsageError(`${source}: "${value}" is not a CSV locale; use pt-BR (; between cells, decimal commas, local times, a BOM) or none (the API's values)`);
}
