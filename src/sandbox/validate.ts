import { invalidParameters, type Problem } from './errors.js';
import { isObject, type JsonObject } from './http.js';
import { parseCents } from './money.js';

/**
 * Collects every problem in a request before answering, so one 400 names all the fields to fix
 * instead of making the caller discover them one round trip at a time.
 */
export class Checker {
  readonly problems: Problem[] = [];

  add(field: string, message: string): void {
    this.problems.push({ field, message });
  }

  get ok(): boolean {
    return this.problems.length === 0;
  }

  throwIfAny(): void {
    if (!this.ok) throw invalidParameters(this.problems);
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

  /** A positive amount in integer cents; numeric strings are accepted like the seed's sample. */
  positiveCents(value: unknown, field: string): number | undefined {
    if (value === undefined || value === null || value === '') {
      this.add(field, 'is required (integer amount in cents)');
      return undefined;
    }
    const cents = parseCents(value);
    if (cents === undefined || cents <= 0) {
      this.add(field, 'must be a positive integer amount in cents');
      return undefined;
    }
    return cents;
  }

  currency(value: unknown, field: string): string | undefined {
    if (value === undefined || value === null || value === '') {
      this.add(field, 'is required (three-letter currency code such as BRL)');
      return undefined;
    }
    if (typeof value !== 'string' || !/^[A-Za-z]{3}$/.test(value)) {
      this.add(field, 'must be a three-letter currency code such as BRL');
      return undefined;
    }
    return value.toUpperCase();
  }

  optionalObject(value: unknown, field: string): JsonObject | undefined {
    if (value === undefined || value === null) return undefined;
    if (!isObject(value)) {
      this.add(field, 'must be an object');
      return undefined;
    }
    return value;
  }

  /** Metadata follows the provider's schema: a flat object of string values. */
  metadata(value: unknown, field: string): Record<string, string | null> | undefined {
    const obj = this.optionalObject(value, field);
    if (!obj) return undefined;
    const out: Record<string, string | null> = {};
    for (const [key, v] of Object.entries(obj)) {
      if (typeof v === 'string' || v === null) out[key] = v;
      else if (typeof v === 'number' || typeof v === 'boolean') out[key] = String(v);
      else this.add(`${field}.${key}`, 'must be a string');
    }
    return out;
  }
}

/** Metadata as the request schema has it (text values, null for none) on a new record: the keys with text. */
export function newMetadata(value: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries((value ?? {}) as Record<string, string | null>).filter((e): e is [string, string] => e[1] !== null));
}
