// Parquet through hyparquet-writer (pure JavaScript, one dependency: its reader). Records are
// gathered into row groups of ROW_GROUP_ROWS, each written and handed to the sink before the next
// is gathered, so memory holds one row group however long the export. Loaded only for
// --format parquet.
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { SchemaElement } from 'hyparquet';
import { pathReader } from '../../output/fields.js';
import { startCollection } from '../../platform/runtime.js';
import { VERSION } from '../../version.js';
import type { ExportRecord, RecordWriter } from './record.js';
import type { ColumnType, ExportColumn } from './resources.js';
import type { Sink } from './sink.js';

/**
 * Rows a row group holds. Engines read a row group as a unit and prefer them large, but memory
 * holds one while it is gathered and encoded: measured on 100,000 transactions, 50,000-row groups
 * peaked at 330 MB (NDJSON: 194 MB), 10,000-row groups at 218 MB and 5,000 at 197 MB. 10,000 keeps
 * the footer small (a million rows are 100 groups) and each group about 600 KB on disk.
 */
const ROW_GROUP_ROWS = 10_000;

const DAY_MS = 86_400_000;

/**
 * A column's name in Parquet: its dotted path with `_` for `.` (`payment_method_card_brand`),
 * since Spark and SQL read a dot in a name as a field of a struct.
 */
export function parquetName(path: string): string {
  return path.replaceAll('.', '_');
}

/** Money as DECIMAL(18,2) on an INT64 of cents: exact, and read as a decimal by DuckDB, pandas and Spark. */
function element(name: string, type: ColumnType): SchemaElement {
  const optional = { name, repetition_type: 'OPTIONAL' } as const;
  switch (type) {
    case 'decimal':
      return { ...optional, type: 'INT64', converted_type: 'DECIMAL', scale: 2, precision: 18, logical_type: { type: 'DECIMAL', scale: 2, precision: 18 } };
    case 'timestamp':
      return { ...optional, type: 'INT64', converted_type: 'TIMESTAMP_MILLIS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' } };
    case 'date':
      return { ...optional, type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } };
    case 'integer':
      return { ...optional, type: 'INT32' };
    case 'boolean':
      return { ...optional, type: 'BOOLEAN' };
    default:
      // JSON columns (a list of ids) are their JSON text: every reader takes a string.
      return { ...optional, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } };
  }
}

export function parquetSchema(columns: ExportColumn[]): SchemaElement[] {
  return [{ name: 'root', num_children: columns.length }, ...columns.map((c) => element(parquetName(c.path), c.type))];
}

/** An API value as its column stores it; what does not fit the type is null, never a guess. */
function converter(type: ColumnType): (value: unknown) => unknown {
  switch (type) {
    case 'decimal':
      return (v) => {
        const match = typeof v === 'string' ? /^(-?)(\d{1,16})(?:\.(\d{1,2}))?$/.exec(v) : null;
        if (!match) return null;
        const cents = BigInt(match[2] as string) * 100n + BigInt((match[3] ?? '').padEnd(2, '0'));
        return match[1] === '-' ? -cents : cents;
      };
    case 'timestamp':
      return (v) => {
        const ms = typeof v === 'string' ? Date.parse(v) : Number.NaN;
        return Number.isFinite(ms) ? ms : null;
      };
    case 'date':
      return (v) => {
        const ms = typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? Date.parse(v.slice(0, 10)) : Number.NaN;
        return Number.isFinite(ms) ? Math.floor(ms / DAY_MS) : null;
      };
    case 'integer':
      return (v) => {
        const n = typeof v === 'number' || (typeof v === 'string' && /^-?\d{1,9}$/.test(v)) ? Number(v) : Number.NaN;
        return Number.isInteger(n) ? n : null;
      };
    case 'boolean':
      // The provider sends some flags as the strings "true" and "false" (a receivable's liable).
      return (v) => (typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : null);
    case 'json':
      return (v) => (v === undefined || v === null ? null : JSON.stringify(v));
    default:
      return (v) => (v === undefined || v === null ? null : typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
}

/**
 * hyparquet-writer's in-memory writer, emptied into the sink after each row group (the library
 * calls flush() then and waits for it), so the file never sits in memory whole.
 */
class SinkWriter extends ByteWriter {
  constructor(private readonly sink: Sink) {
    super(1024 * 1024);
  }

  flush(): Promise<void> {
    const bytes = this.getBytes();
    this.index = 0;
    // getBytes is a view of the buffer the next row group reuses: the sink copies what it keeps.
    return this.sink.write(bytes);
  }

  override finish(): Promise<void> {
    return this.flush();
  }
}

export function parquetWriter(columns: ExportColumn[], sink: Sink): RecordWriter {
  const writer = new ParquetWriter({ writer: new SinkWriter(sink), schema: parquetSchema(columns), createdBy: `payctl ${VERSION}` });
  const readers = columns.map((c) => pathReader(c.path));
  const converters = columns.map((c) => converter(c.type));
  // Each column's values for the row group being gathered, in arrays made at full size once per
  // group: grown by push, a column's array was copied a dozen times on its way to 10,000 values,
  // and the copies were garbage in V8's large-object space (up to 17 MB between two groups).
  const fresh = () => columns.map(() => new Array<unknown>(ROW_GROUP_ROWS));
  let data = fresh();
  let rows = 0;
  const writeGroup = async () => {
    if (rows === 0) return;
    const count = rows;
    const columnData = columns.map((c, i) => {
      const values = data[i] as unknown[];
      values.length = count;
      return { name: parquetName(c.path), data: values };
    });
    data = fresh();
    rows = 0;
    await writer.write({ columnData: columnData as never, rowGroupSize: count });
    // The group just written is garbage now, most of it in the old generation: collected here
    // rather than whenever V8 next gets to it, memory at 100,000 rows stays near memory at 10,000.
    startCollection();
  };
  return {
    async write(records: ExportRecord[]) {
      for (const { item } of records) {
        for (let i = 0; i < readers.length; i++) (data[i] as unknown[])[rows] = (converters[i] as (v: unknown) => unknown)((readers[i] as (o: unknown) => unknown)(item));
        rows += 1;
        if (rows >= ROW_GROUP_ROWS) await writeGroup();
      }
    },
    async end() {
      await writeGroup();
      await writer.finish();
    },
  };
}
