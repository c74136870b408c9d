// The sandbox: a stateful emulation of the payment service over real HTTP, with its state in one
// file under the caller's state directory. The CLI imports this module lazily; configuration
// that only needs the fixed ids imports ../provider/sandbox-account.js, which pulls in nothing else.

export { startSandbox, type SandboxHandle } from './server.js';
export { wipeState as resetSandbox } from './store.js';
export { parseFaults, FaultSpecError } from './faults.js';
