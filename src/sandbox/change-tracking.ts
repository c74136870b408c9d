// Which parts of the state a mutation changed, so the store writes only those (a refund appends
// one transaction, not the whole sandbox). Handlers mutate the state as plain objects; they are
// handed a proxy of it that notes, on every write at any depth, the unit the write falls in.
//
// A unit is what the database stores as one row (db/unit-of-work.ts): an item of a collection (`transactions/3`,
// `buyers/<id>`), or a whole top-level value for the few that are not collections (`clock`,
// `counters`, `seller`). Reads are never noted, so scanning a collection costs no writes.

/** A top-level value, or one item of a top-level collection. */
export type UnitKey = [top: string] | [top: string, key: string];

/** Top-level objects that are one record each rather than a collection of records. */
const SINGLETONS = new Set(['seller', 'clock', 'counters', 'payouts']);

export function isCollection(top: string, value: unknown): boolean {
  return typeof value === 'object' && value !== null && (Array.isArray(value) || !SINGLETONS.has(top));
}

type Raw = Record<string | symbol, unknown>;

export interface Tracker<T> {
  /** The proxy to hand to the mutation. */
  state: T;
  /** The units written to, whole top-level values first, without items a whole value already covers. */
  changed(): UnitKey[];
  /** An item's JSON as it was before the mutation first wrote to it; undefined when it did not exist. */
  before(top: string, key: string): string | undefined;
  /** The plain object behind a proxy this tracker made (a mutation may return one). */
  unwrap<V>(value: V): V;
}

function isObject(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null;
}

export function trackChanges<T extends object>(raw: T): Tracker<T> {
  const wholes = new Set<string>();
  const items = new Map<string, Set<string>>();
  const toRaw = new WeakMap<object, object>();
  // One proxy per (unit, object), so the same object read twice is the same object (===).
  const proxies = new Map<string, WeakMap<object, object>>();

  const befores = new Map<string, string | undefined>();
  const noteWhole = (top: string) => wholes.add(top);
  const noteItem = (top: string, key: string) => {
    let keys = items.get(top);
    if (!keys) items.set(top, (keys = new Set()));
    if (keys.has(key)) return;
    keys.add(key);
    // Called before the write lands, so this is the item as it was.
    const collection = (raw as Raw)[top] as Raw | undefined;
    befores.set(`${top}/${key}`, JSON.stringify(collection?.[key]));
  };
  const unwrap = <V>(value: V): V => (isObject(value) ? ((toRaw.get(value) as V | undefined) ?? value) : value);

  /** A proxy of `target` whose writes, at any depth, mark `mark`'s unit. */
  const wrap = (target: Raw, unit: string, mark: () => void): Raw => {
    let byObject = proxies.get(unit);
    if (!byObject) proxies.set(unit, (byObject = new WeakMap()));
    const existing = byObject.get(target);
    if (existing) return existing as Raw;
    const proxy = new Proxy(target, {
      get(t, prop) {
        const value = Reflect.get(t, prop);
        return typeof prop !== 'symbol' && isObject(value) ? wrap(value, unit, mark) : value;
      },
      set(t, prop, value) {
        mark();
        return Reflect.set(t, prop, unwrap(value));
      },
      deleteProperty(t, prop) {
        mark();
        return Reflect.deleteProperty(t, prop);
      },
      defineProperty(t, prop, descriptor) {
        mark();
        return Reflect.defineProperty(t, prop, descriptor);
      },
    });
    byObject.set(target, proxy);
    toRaw.set(proxy, target);
    return proxy;
  };

  /** A collection: each item is its own unit; shrinking an array rewrites it whole. */
  const wrapCollection = (target: Raw, top: string): Raw => {
    const unit = `${top}/`;
    let byObject = proxies.get(unit);
    if (!byObject) proxies.set(unit, (byObject = new WeakMap()));
    const existing = byObject.get(target);
    if (existing) return existing as Raw;
    const array = Array.isArray(target);
    const proxy = new Proxy(target, {
      get(t, prop) {
        const value = Reflect.get(t, prop);
        if (typeof prop === 'symbol' || !isObject(value)) return value;
        return wrap(value, `${top}/${prop}`, () => noteItem(top, prop));
      },
      set(t, prop, value) {
        if (typeof prop === 'symbol') noteWhole(top);
        else if (array && prop === 'length') {
          if ((value as number) < (t as unknown as unknown[]).length) noteWhole(top);
        } else noteItem(top, prop);
        return Reflect.set(t, prop, unwrap(value));
      },
      deleteProperty(t, prop) {
        // A hole in an array has no record to stand for it.
        if (array || typeof prop === 'symbol') noteWhole(top);
        else noteItem(top, prop);
        return Reflect.deleteProperty(t, prop);
      },
      defineProperty(t, prop, descriptor) {
        noteWhole(top);
        return Reflect.defineProperty(t, prop, descriptor);
      },
    });
    byObject.set(target, proxy);
    toRaw.set(proxy, target);
    return proxy;
  };

  const rootTarget = raw as Raw;
  const root = new Proxy(rootTarget, {
    get(t, prop) {
      const value = Reflect.get(t, prop);
      if (typeof prop === 'symbol' || !isObject(value)) return value;
      return isCollection(prop, value) ? wrapCollection(value, prop) : wrap(value, prop, () => noteWhole(prop));
    },
    set(t, prop, value) {
      if (typeof prop !== 'symbol') noteWhole(prop);
      return Reflect.set(t, prop, unwrap(value));
    },
    deleteProperty(t, prop) {
      if (typeof prop !== 'symbol') noteWhole(prop);
      return Reflect.deleteProperty(t, prop);
    },
  });
  toRaw.set(root, rootTarget);

  return {
    state: root as T,
    unwrap,
    before: (top, key) => befores.get(`${top}/${key}`),
    changed() {
      const units: UnitKey[] = [...wholes].map((top) => [top]);
      for (const [top, keys] of items) {
        if (wholes.has(top)) continue;
        for (const key of keys) units.push([top, key]);
      }
      return units;
    },
  };
}
