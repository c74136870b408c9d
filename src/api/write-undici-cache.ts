// A step of the build (package.json's "build"), run once dist/undici.cjs is made: never part of a
// command. It saves the code V8 compiles for undici's bundle (undici-bundle.ts), under the flags
// the CLI sets before it loads undici, since V8 refuses a cache made under other flags.
import { resolve } from 'node:path';
import { tuneRuntime } from '../platform/runtime.js';
import { writeUndiciCache } from './undici-bundle.js';

tuneRuntime();
const [bundle] = process.argv.slice(2);
if (!bundle) throw new Error('usage: write-undici-cache.js <path of undici.cjs>');
writeUndiciCache(resolve(bundle));
