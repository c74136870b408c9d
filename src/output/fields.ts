// Dotted paths (`payment_method.card_brand`, `history.0.amount`) select into API objects for
// --fields, CSV columns and table cells. Lookups use own properties only, so a path such as
// `constructor` or `__proto__` finds nothing instead of something from Object.prototype.

type Json = Record<string, unknown>;

function isPlainObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasOwn(obj: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/**
 * Which keys of `obj` the path segments starting at `i` can name. Normally one segment is one key,
 * but metadata keys may contain dots themselves (`metadata.order.id` with a key `order.id`), so
 * longer joins are tried too.
 */
function keyCandidates(obj: Json, parts: string[], i: number): Array<[key: string, next: number]> {
  const found: Array<[string, number]> = [];
  let key = '';
  for (let j = i; j < parts.length; j++) {
    key = j === i ? (parts[j] as string) : `${key}.${parts[j]}`;
    if (hasOwn(obj, key)) found.push([key, j + 1]);
  }
  return found;
}

function lookup(value: unknown, parts: string[], i: number): unknown {
  if (i === parts.length) return value;
  if (Array.isArray(value)) {
    const segment = parts[i] as string;
    // A numeric segment indexes the array; any other maps over its items (history.status).
    if (/^\d+$/.test(segment)) return lookup(value[Number(segment)], parts, i + 1);
    const mapped = value.map((item) => lookup(item, parts, i)).filter((v) => v !== undefined);
    return mapped.length > 0 ? mapped : undefined;
  }
  if (!isPlainObject(value)) return undefined;
  for (const [key, next] of keyCandidates(value, parts, i)) {
    const found = lookup(value[key], parts, next);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The value at a dotted path, or undefined when any step is missing. */
export function getPath(obj: unknown, path: string): unknown {
  if (path === '') return obj;
  return lookup(obj, path.split('.'), 0);
}

/**
 * getPath for one path over many objects (a CSV column over every row): the path is split once,
 * and the common case, each segment an own key of a plain object, is a direct walk; anything else
 * (arrays, keys with dots in them) goes through getPath.
 */
export function pathReader(path: string): (obj: unknown) => unknown {
  if (path === '') return (obj) => obj;
  const parts = path.split('.');
  return (obj) => {
    let value: unknown = obj;
    for (const part of parts) {
      if (!isPlainObject(value) || !hasOwn(value, part)) return lookup(obj, parts, 0);
      value = value[part];
    }
    return value;
  };
}

/**
 * Nested objects → one level of dotted keys: `{ payment_method: { card_brand: 'Visa' } }` →
 * `{ 'payment_method.card_brand': 'Visa' }`. Arrays stay whole (they are one cell), unless
 * `expandArrays` is set, which gives `history.0.amount`. An empty object stays as `{}` so the key
 * is not lost.
 */
export function flatten(obj: unknown, options: { expandArrays?: boolean } = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const walk = (value: unknown, prefix: string): void => {
    const children: Array<[string, unknown]> | undefined = isPlainObject(value)
      ? Object.entries(value)
      : Array.isArray(value) && options.expandArrays
        ? value.map((v, i) => [String(i), v])
        : undefined;
    if (children === undefined || (children.length === 0 && prefix !== '')) {
      if (prefix !== '') defineKey(out, prefix, value);
      return;
    }
    for (const [key, child] of children) walk(child, prefix === '' ? key : `${prefix}.${key}`);
  };
  if (isPlainObject(obj) || (Array.isArray(obj) && options.expandArrays)) walk(obj, '');
  return out;
}

function defineKey(target: Record<string, unknown>, key: string, value: unknown): void {
  // Defined rather than assigned, so a key named "__proto__" is kept as data.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function pickInto(source: unknown, parts: string[], i: number, target: unknown): unknown {
  // A copy, so later paths merging into it (and compact) never touch the caller's object.
  if (i === parts.length) return structuredClone(source);
  if (Array.isArray(source)) {
    const segment = parts[i] as string;
    const result: unknown[] = Array.isArray(target) ? target : [];
    const indexes = /^\d+$/.test(segment) ? [Number(segment)] : source.map((_, k) => k);
    const next = /^\d+$/.test(segment) ? i + 1 : i;
    let any = false;
    for (const k of indexes) {
      if (k >= source.length) continue;
      const picked = pickInto(source[k], parts, next, result[k]);
      if (picked !== undefined) {
        result[k] = picked;
        any = true;
      }
    }
    return any || Array.isArray(target) ? result : undefined;
  }
  if (!isPlainObject(source)) return target;
  for (const [key, next] of keyCandidates(source, parts, i)) {
    const existing = isPlainObject(target) ? target[key] : undefined;
    const picked = pickInto(source[key], parts, next, existing);
    if (picked !== undefined) {
      const result: Json = isPlainObject(target) ? target : {};
      defineKey(result, key, picked);
      return result;
    }
  }
  return target;
}

/** Arrays built by index selection have holes (`history.2` alone); keep only what was picked. */
function compact(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter(() => true).map(compact);
  if (isPlainObject(value)) {
    for (const key of Object.keys(value)) value[key] = compact(value[key]);
  }
  return value;
}

/**
 * A copy of `obj` keeping only the given dotted paths, nested as in the original, top-level keys in
 * the order the paths were given. Missing paths are left out. A path through an array without an
 * index (`history.amount`) keeps that field of every item.
 */
export function pickFields(obj: unknown, paths: readonly string[]): unknown {
  if (!isPlainObject(obj) && !Array.isArray(obj)) return obj;
  let result: unknown;
  for (const path of paths) {
    if (path === '') continue;
    result = pickInto(obj, path.split('.'), 0, result);
  }
  return compact(result ?? (Array.isArray(obj) ? [] : {}));
}
