/** Metadata as the request schema has it (text values, null for none) on a new record: the keys with text. */
export function newMetadata(value: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries((value ?? {}) as Record<string, string | null>).filter((e): e is [string, string] => e[1] !== null));
}

/** Merges sent metadata like the provider: keys not sent are kept; a key sent as null is removed. */
export function mergeMetadata(metadata: Record<string, string>, sent: Record<string, string | null> | undefined): void {
  for (const [key, value] of Object.entries(sent ?? {})) {
    if (value === null) delete metadata[key];
    else metadata[key] = value;
  }
}
