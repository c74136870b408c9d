// What every export format writes and how: apart from the formats, which parquet.ts and formats.ts both need.

/** A record to write, with its JSON text (made once: the fingerprint is taken from it too). */
export interface ExportRecord {
  item: Record<string, unknown>;
  json: string;
}

export interface RecordWriter {
  write(records: ExportRecord[]): Promise<void>;
  /** Writes what the format needs at its end (Parquet's footer); the sink is then complete. */
  end(): Promise<void>;
}
