import { UsageError } from '../errors.js';
import { didYouMean } from '../validate/closest.js';
import type { CsvLocale } from './csv-locale.js';
import type { CellKind } from './format.js';
import type { NamesOf } from './record-names.js';

// What every renderer is handed (render.ts picks the renderer; table.ts and csv.ts are loaded by it
// on first use), apart from all of them so that none imports another for its types.

export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv';

export interface Column {
  /** Dotted path into each item. */
  key: string;
  header: string;
  /** How cells are shown, and whether they may be cut or dropped to fit a terminal (text only). */
  kind?: CellKind;
  /**
   * The id of something else (a subscription's plan, a history entry's transfer): never cut, but
   * dropped, after the text columns, when the terminal is too narrow for the row.
   */
  optional?: boolean;
  /**
   * The column holds the id of a record a person knows by name (a buyer, a seller, a plan): a table
   * on a terminal shows that name instead, read from the service (named-columns.ts).
   */
  names?: NamesOf;
  /**
   * The width its values can take, when the first rows cannot tell: a stream of rows arriving one
   * at a time (webhooks listen) sizes the column by this, so that later rows line up with the first.
   */
  width?: number;
}

export interface RenderOptions {
  format: OutputFormat;
  /** Results only (stdout); may be a pipe. */
  out: NodeJS.WritableStream;
  /** Decided by the caller (NO_COLOR, FORCE_COLOR, --no-color, TTY). */
  color: boolean;
  /** --fields: dotted paths to keep, in this order, for every format. */
  fields?: string[];
  /** The resource's default table columns for lists. */
  columns?: Column[];
  /** The resource's CSV header when --fields is not given, so every export has the same columns. */
  csvColumns?: string[];
  /** --csv-raw: CSV cells that look like formulas are not prefixed with `'` (see csv.ts). */
  csvRaw?: boolean;
  /** CSV for a Brazilian spreadsheet (csv-locale.ts). */
  csvLocale?: CsvLocale;
  /** Told the headers of the columns a terminal too narrow for them left out (--fields asked for them). */
  onDropped?: (headers: string[]) => void;
}

const FORMATS: readonly OutputFormat[] = ['table', 'json', 'ndjson', 'csv'];

/** An output format named by --output or a profile's output setting (`source` says which). */
export function parseFormat(value: string, source: string): OutputFormat {
  if ((FORMATS as readonly string[]).includes(value)) return value as OutputFormat;
  throw new UsageError(`${source}: "${value}" is not an output format${didYouMean(value, FORMATS)}; use one of ${FORMATS.join(', ')}`);
}
