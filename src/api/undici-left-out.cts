// Stands in, inside undici's bundle (dist/undici.cjs, made by build-undici.ts), for each module of
// the parts of undici that payctl never uses: fetch and the web classes around it (Headers,
// Request, Response, FormData, WebSocket, EventSource, CacheStorage, cookies), the mocks, and the
// HTTP cache stores. undici's index loads them all as it loads, and they were about half of its
// load time. Its dispatchers reach none of them, but for a FormData body, which payctl never sends.
//
// Such a module, and every export of it, refuses to be called, saying why; built with `new`
// (undici's index builds `caches` as it loads), it gives an object whose every property refuses
// to be read. So a part left out fails loudly the first time anything uses it, never quietly.

function refuse(name: string): never {
  throw new Error(`undici's ${name} is left out of payctl's build (src/api/undici-left-out.cts)`);
}

/** An object each of whose properties refuses to be read. */
function refusing(name: string): object {
  return new Proxy({}, { get: (_target, key) => (typeof key === 'symbol' ? undefined : refuse(`${name}.${key}`)) });
}

/**
 * A left-out module, or an export of one, by its name: reading a property of it gives the export
 * of that name; calling it refuses. `then` and `__esModule` read as undefined, as for any object
 * that is neither a promise nor an ES module.
 */
function leftOut(name: string): unknown {
  // A class: callable and constructible as the Proxy's target, and with no sloppy-mode properties.
  return new Proxy(class LeftOutOfPayctl {}, {
    get: (target, key) =>
      typeof key === 'string' && key !== 'then' && key !== '__esModule' && key !== 'prototype' ? leftOut(name ? `${name}.${key}` : key) : Reflect.get(target, key),
    apply: () => refuse(name || 'module'),
    construct: () => refusing(name || 'module'),
  });
}

export = leftOut('');
