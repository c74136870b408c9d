// undici, through its public index, as every part of payctl that speaks HTTP gets it: this module
// is imported dynamically with the first request, never on start-up, so --help, --version and dry
// runs never pay for it (undici's index is about 7 MB of memory). No other module imports undici
// but for its types: the prelude must run first (undici-prelude.ts).
//
// The bundle reads `globalThis.Headers` as undefined (package.json's build: --define). undici's
// cookie helpers read it once, as they load, to accept Node's own Headers objects as well as
// undici's; but in Node that global is lazy, and reading it loads Node's own bundled copy of undici,
// and tls, http2 and crypto with it. payctl never hands undici's cookie helpers any headers, so that
// copy is never needed: measured on `transactions get` against `sandbox serve`, it cost about 20 ms
// and 2 MB on Node.js 20, 25 ms and 5 MB on Node.js 22. It cannot be hidden at run time instead: on
// Node.js 22 and later, even looking at the global's descriptor loads it.
import './undici-prelude.js';
import * as undici from 'undici';

export default undici;
