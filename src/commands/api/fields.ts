import { readFile } from 'node:fs/promises';
import { UsageError } from '../../errors.js';

// `-f key=value` and `-F key=value`, the way `gh api` reads them: -f is always a string; -F is
// typed (true, false, null, numbers, JSON objects and arrays, and @file for a file's content).
// Keys nest with brackets: `source[amount]=1000`, `event[]=a -F event[]=b`.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function splitKey(key: string, flag: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) throw new UsageError(`${flag}: "${key}" is not a field name (use name, a[b] or a[])`);
  const parts = [match[1] as string];
  for (const m of (match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)) parts.push(m[1] as string);
  return parts;
}

async function typed(value: string): Promise<Json> {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (value.startsWith('@')) {
    try {
      return await readFile(value.slice(1), 'utf8');
    } catch (err) {
      throw new UsageError(`-F: cannot read ${value.slice(1)} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  }
  if (/^[[{]/.test(value)) {
    try {
      return JSON.parse(value) as Json;
    } catch {
      throw new UsageError(`-F: ${value} looks like JSON but is not`);
    }
  }
  return value;
}

function place(target: Record<string, Json>, parts: string[], value: Json, flag: string, key: string): void {
  let node: Record<string, Json> | Json[] = target;
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    const nextIsArray = parts[i + 1] === '';
    if (Array.isArray(node)) {
      if (part !== '') throw new UsageError(`${flag}: "${key}" mixes a list and named fields`);
      if (last) node.push(value);
      else {
        const child: Record<string, Json> | Json[] = nextIsArray ? [] : {};
        node.push(child);
        node = child;
      }
      return;
    }
    if (part === '') throw new UsageError(`${flag}: "${key}" puts a list where a name is needed`);
    if (last) {
      node[part] = value;
      return;
    }
    const existing: Json | undefined = node[part];
    if (existing === undefined || existing === null || typeof existing !== 'object') node[part] = nextIsArray ? [] : {};
    node = node[part] as Record<string, Json> | Json[];
  });
}

/** The fields as one object, in the order given. */
export async function buildFields(raw: string[], typedRaw: string[]): Promise<Record<string, Json>> {
  const fields: Record<string, Json> = {};
  const all: Array<[string, boolean]> = [...raw.map((f): [string, boolean] => [f, false]), ...typedRaw.map((f): [string, boolean] => [f, true])];
  for (const [field, isTyped] of all) {
    const flag = isTyped ? '-F' : '-f';
    const at = field.indexOf('=');
    if (at <= 0) throw new UsageError(`${flag}: "${field}" is not key=value`);
    const key = field.slice(0, at);
    const value = field.slice(at + 1);
    place(fields, splitKey(key, flag), isTyped ? await typed(value) : value, flag, key);
  }
  return fields;
}

/** Fields as a query string's parameters (a GET): nested names keep their brackets. */
export function fieldsAsQuery(fields: Record<string, Json>): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (value: Json, name: string) => {
    if (Array.isArray(value)) out[name] = value.map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v))).join(',');
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${name}[${k}]`);
    else out[name] = value === null ? '' : String(value);
  };
  for (const [key, value] of Object.entries(fields)) walk(value, key);
  return out;
}
