// undici, through its public index, as every part of payctl that speaks HTTP gets it: this module
// is imported dynamically with the first request, never on start-up, so --help, --version and dry
// runs never pay for it (undici's index is about 7 MB of memory). No other module loads undici but
// for its types.
//
// The CLI's bundle does not hold undici: the build makes undici a bundle of its own, dist/undici.cjs
// (build-undici.ts), and saves the code V8 compiles for it, which is loaded here (undici-bundle.ts).
// That bundle leaves out what payctl never uses, and would otherwise load with the index: node:http2
// (no-http2.ts), and undici's fetch, web classes, mocks and cache stores (undici-left-out.cts).
// Left out with them are undici's cookie helpers, which read `globalThis.Headers` as they load: in
// Node.js that global is lazy, and reading it loads Node's own bundled copy of undici, and tls,
// http2 and crypto with it (about 20 ms and 2 MB on Node.js 20, 25 ms and 5 MB on Node.js 22).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { loadUndiciBundle } from './undici-bundle.js';

/** Set by the build (--define): undici's bundle, relative to the chunk this module is bundled in. From source (tests), unset. */
declare const PAYCTL_UNDICI_BUNDLE: string | undefined;

// The entry point has tuned V8 for undici's WebAssembly HTTP parser before this loads (platform/runtime.ts).
const undici: typeof import('undici') =
  typeof PAYCTL_UNDICI_BUNDLE === 'string' ? loadUndiciBundle(fileURLToPath(new URL(PAYCTL_UNDICI_BUNDLE, import.meta.url))) : (createRequire(import.meta.url)('undici') as typeof import('undici'));

export default undici;
