// The three formats an export writes: NDJSON (the API's objects, whole), CSV (the resource's
// fixed columns, the API's text made safe to open, as `-o csv` writes it) and Parquet (the same columns, typed; see parquet.ts).
import { pathReader } from '../../output/fields.js';
import type { ExportColumn } from './resources.js';
import type { Sink } from './sink.js';
import type { ExportRecord, RecordWriter } from './record.js';
import type { CsvLocale } from '../../output/csv-locale.js';

export const EXPORT_FORMATS = ['ndjson', 'csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface WriterOptions {
  /** --csv-raw: CSV cells that look like formulas are not prefixed with `'` (see output/csv.ts). */
  csvRaw: boolean;
  /** CSV for a Brazilian spreadsheet (output/csv-locale.ts). */
  csvLocale?: CsvLocale;
}

export async function recordWriter(format: ExportFormat, columns: ExportColumn[], sink: Sink, options: WriterOptions): Promise<RecordWriter> {
  if (format === 'ndjson') {
    return {
      write: (records) => sink.write(records.map((r) => `${r.json}\n`).join('')),
      end: async () => undefined,
    };
  }
  // Loaded only for their format: csv-stringify for CSV, the Parquet writer for Parquet.
  if (format === 'csv') return csvWriter(columns, sink, options);
  const { parquetWriter } = await import('./parquet.js');
  return parquetWriter(columns, sink);
}

async function csvWriter(columns: ExportColumn[], sink: Sink, { csvRaw, csvLocale }: WriterOptions): Promise<RecordWriter> {
  const [{ stringify: plain }, { safeCell }, { csvDialect }] = await Promise.all([import('csv-stringify/sync'), import('../../output/csv.js'), import('../../output/csv-locale.js')]);
  const dialect = csvDialect(csvLocale);
  const stringify = (records: string[][]) => plain(records, { delimiter: dialect.delimiter });
  const readers = columns.map((c) => pathReader(c.path));
  const kinds = columns.map((c) => (c.type === 'decimal' || c.type === 'timestamp' ? c.type : 'other'));
  // The header is written even when no record is: every file of an export has the same shape.
  await sink.write(dialect.bom + stringify([columns.map((c) => c.path)]));
  return {
    write: (records) => sink.write(stringify(records.map((r) => readers.map((read, i) => dialect.cell(safeCell(read(r.item), csvRaw), kinds[i]))))),
    end: async () => undefined,
  };
}
