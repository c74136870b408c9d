// The sandbox: a stateful emulation of the payment service over real HTTP, with its state in one
// file under the caller's state directory. The CLI imports this module lazily; configuration
// that only needs the fixed ids imports ./constants.js, which pulls in nothing else.

export { startSandbox, resetSandbox, type SandboxOptions, type SandboxHandle } from './server.js';
export { type DeliveryOptions } from './deliverer.js';
export { parseFaults, FaultSpecError, type FaultPlan } from './faults.js';
export {
  SANDBOX_API_KEY,
  SANDBOX_MARKETPLACE_ID,
  SANDBOX_SELLER_ID,
  SANDBOX_BUYER_ID,
  SANDBOX_CARD_ID,
} from '../provider/sandbox-account.js';
