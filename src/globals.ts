import { UsageError } from './errors.js';
import { parseFormat, type OutputFormat } from './output/render-options.js';
import { parseCsvLocale, type CsvLocale } from './output/csv-locale.js';

/** Options accepted before or after any verb (see the contract's "Invocation"). */
export interface GlobalOptions {
  profile?: string;
  output?: OutputFormat;
  fields?: string[];
  color: boolean;
  input: boolean;
  yes: boolean;
  dryRun: boolean;
  debug: boolean;
  timeoutSeconds?: number;
  quiet: boolean;
  insecureHttp: boolean;
  /** --no-pager: never page a long object view. */
  pager: boolean;
  /** --csv-raw: CSV cells that look like formulas are written without the `'` that defuses them. */
  csvRaw: boolean;
  /** --csv-locale: pt-BR for a Brazilian spreadsheet, none for the API's values (over the profile's csv_locale). */
  csvLocale?: CsvLocale;
}


/** Turns commander's raw option bag into checked global options. */
export function parseGlobals(raw: Record<string, unknown>): GlobalOptions {
  const globals: GlobalOptions = {
    color: raw.color !== false,
    input: raw.input !== false,
    yes: raw.yes === true,
    dryRun: raw.dryRun === true,
    debug: raw.debug === true,
    quiet: raw.quiet === true,
    insecureHttp: raw.insecureHttp === true,
    pager: raw.pager !== false,
    csvRaw: raw.csvRaw === true,
  };
  if (typeof raw.profile === 'string') globals.profile = raw.profile;
  if (typeof raw.csvLocale === 'string') globals.csvLocale = parseCsvLocale(raw.csvLocale, '--csv-locale');
  if (typeof raw.output === 'string') globals.output = parseFormat(raw.output, '--output');
  if (typeof raw.fields === 'string') {
    const fields = raw.fields.split(',').map((f) => f.trim()).filter(Boolean);
    if (fields.length === 0) throw new UsageError('--fields: give a comma-separated list such as id,status,amount');
    globals.fields = fields;
  }
  if (raw.timeout !== undefined) {
    const seconds = Number(raw.timeout);
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 600) {
      throw new UsageError('--timeout: give the number of seconds, more than 0 and at most 600');
    }
    globals.timeoutSeconds = seconds;
  }
  return globals;
}
