// undici, through its public index, as every part of payctl that speaks HTTP gets it: this module
// is imported dynamically with the first request, never on start-up, so --help, --version and dry
// runs never pay for it (undici's index is about 7 MB of memory). No other module loads undici but
// for its types.
//
// The CLI's bundle does not hold undici: the build makes undici a bundle of its own, dist/undici.cjs,
// and saves the code V8 compiles for it, which is loaded here (undici-bundle.ts). Two things in that
// bundle keep undici from waking parts of Node.js that payctl never uses. node:http2 is replaced by
// a module holding only the constants undici reads from it (no-http2.ts). And `globalThis.Headers`
// reads as undefined (--define): undici's cookie helpers read it once, as they load, to accept
// Node's own Headers objects as well as undici's; but in Node.js that global is lazy, and reading
// it loads Node's own bundled copy of undici, and tls, http2 and crypto with it. payctl never hands undici's cookie helpers any headers, so that copy is
// never needed: measured on `transactions get` against `sandbox serve`, it cost about 20 ms and
// 2 MB on Node.js 20, 25 ms and 5 MB on Node.js 22. It cannot be hidden at run time instead: on
// Node.js 22 and later, even looking at the global's descriptor loads it.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { tuneRuntime } from '../platform/runtime.js';
import { loadUndiciBundle } from './undici-bundle.js';

/** Set by the build (--define): undici's bundle, relative to the chunk this module is bundled in. From source (tests), unset. */
declare const PAYCTL_UNDICI_BUNDLE: string | undefined;

// --liftoff-only, before undici compiles its WebAssembly HTTP parser (platform/runtime.ts).
tuneRuntime();

const undici: typeof import('undici') =
  typeof PAYCTL_UNDICI_BUNDLE === 'string' ? loadUndiciBundle(fileURLToPath(new URL(PAYCTL_UNDICI_BUNDLE, import.meta.url))) : (createRequire(import.meta.url)('undici') as typeof import('undici'));

export default undici;
