// What must happen just before undici's index is evaluated. Only undici.ts imports this module:
// ES modules evaluate their imports in order and synchronously, so this runs, then undici's index,
// then undici.ts's own body, with nothing else in between.
import { tuneRuntime } from '../platform/runtime.js';

// --liftoff-only, before undici compiles its WebAssembly HTTP parser (platform/runtime.ts).
tuneRuntime();
