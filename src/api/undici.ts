// undici, through its public index, as every part of payctl that speaks HTTP gets it: this module
// is imported dynamically with the first request, never on start-up, so --help, --version and dry
// runs never pay for it (undici's index is about 7 MB of memory). No other module imports undici
// but for its types: the prelude must run first (undici-prelude.ts).
import './undici-prelude.js';
import * as undici from 'undici';

export default undici;
