// Reads CSV output back the way a spreadsheet would, so tests check what users get, not our own
// idea of CSV.
import { parse as parseSync } from 'csv-parse/sync';

export function parse(text: string): string[][] {
  return parseSync(text, { relax_column_count: false }) as string[][];
}
