import { invalidParameters, type Problem } from './errors.js';
import { isObject, type JsonObject } from './http.js';

/**
 * Collects every problem in a request before answering, so one 400 names all the fields to fix
 * instead of making the caller discover them one round trip at a time.
 */
export class Checker {
  readonly problems: Problem[] = [];

  add(field: string, message: string): void {
    this.problems.push({ field, message });
  }

  throwIfAny(): void {
    if (this.problems.length > 0) throw invalidParameters(this.problems);
  }

  requiredString(value: unknown, field: string, maxLength = 500): string | undefined {
    if (value === undefined || value === null || value === '') {
      this.add(field, 'is required');
      return undefined;
    }
    return this.optionalString(value, field, maxLength) ?? undefined;
  }

  /** undefined when absent; null when explicitly null (which clears a field on update). */
  optionalString(value: unknown, field: string, maxLength = 500): string | null | undefined {
    if (value === undefined) return undefined;
    if (value === null) return null;
    if (typeof value !== 'string') {
      this.add(field, 'must be a string');
      return undefined;
    }
    if (value.length > maxLength) {
      this.add(field, `must be at most ${maxLength} characters`);
      return undefined;
    }
    return value;
  }

  optionalObject(value: unknown, field: string): JsonObject | undefined {
    if (value === undefined || value === null) return undefined;
    if (!isObject(value)) {
      this.add(field, 'must be an object');
      return undefined;
    }
    return value;
  }
}

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
