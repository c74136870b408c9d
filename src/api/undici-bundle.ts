// undici's own bundle, dist/undici.cjs (package.json's build makes it apart from the CLI's chunks),
// and the code V8 compiled for it, which the build saves beside it (build-undici.ts). Loading
// undici's index is mostly compiling it: the saved code takes most of that away. V8 takes a saved
// cache only from its own version, under the same flags and for a source of the same length, and
// otherwise compiles as usual: a Node.js other than the one that built payctl finds no cache of its
// own and pays what it would have paid anyway.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/** Where the code cache for `bundle` made by this Node.js is (or would be). */
function cacheFileOf(bundle: string): string {
  return `${bundle}.node-${process.version}.cache`;
}

/** The bundle as a CommonJS module's function, compiled from `cachedData` when V8 accepts it. */
function compile(bundle: string, cachedData?: Buffer): Script {
  const source = readFileSync(bundle, 'utf8');
  return new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: bundle, ...(cachedData ? { cachedData } : {}) });
}

function evaluate(script: Script, bundle: string): unknown {
  const module = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return module.exports;
}

/** undici, from its bundle: compiled from the build's code cache when this Node.js made it. */
export function loadUndiciBundle(bundle: string): typeof import('undici') {
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFileOf(bundle));
  } catch {
    // None for this Node.js: compiled as usual.
  }
  return evaluate(compile(bundle, cachedData), bundle) as typeof import('undici');
}

/**
 * For the build: evaluates the bundle once, as a request would, and saves what V8 compiled for it
 * by then (its index and every function that ran while it loaded).
 */
export function writeUndiciCache(bundle: string): void {
  const script = compile(bundle);
  evaluate(script, bundle);
  writeFileSync(cacheFileOf(bundle), script.createCachedData());
}
