// The sandbox account: the fixed identities of the test account the embedded sandbox plays. They
// belong to the contract between the sandbox and the CLI (the built-in profile names them), so
// the CLI's configuration can name them without loading (or bundling into its start-up path)
// the emulation itself.

// Fixed ids so every process, every reset and every profile agree on them: the CLI's built-in
// sandbox profile stores them, and tests refer to them by name.
export const SANDBOX_API_KEY = 'zpk_test_sandbox_0a1bc86eb5180432';
export const SANDBOX_MARKETPLACE_ID = 'f1379a3f3abf16b212aa42d5f7d5e418';
export const SANDBOX_SELLER_ID = '717306fb6d8e0a3645ce5a907a498f8d';
export const SANDBOX_BUYER_ID = 'dcb9e0fcaad703d658ac289ef78ea541';
export const SANDBOX_CARD_ID = 'aeefffb43ca3609548f77bd117e3a922';
/** The seller's balance account: the sandbox names an owner's account by a hash of the owner's id (ledger.ts accountIdFor). */
export const SANDBOX_ACCOUNT_ID = '4889bb3aee9470ddeb2bc71695d0506e';

/** The seller's bank account, as the sandbox pretends it is registered: every payout goes there. */
export const SANDBOX_BANK_ACCOUNT = { bank_code: '001', routing_number: '1234', account_number: '56789-0', holder_name: 'LOJA SANDBOX LTDA' } as const;

/** Where files the real provider hosts (boletos, cancellation letters) appear to live; `.invalid` never resolves. */
export const SANDBOX_FILES_ORIGIN = 'https://sandbox.payctl.invalid';
