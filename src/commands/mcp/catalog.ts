import type { AllowGroup } from './allow.js';

// Which verbs an agent is given as tools, and which are money tools. One list, reviewed as a
// whole: a verb not named here is never a tool. So no tool logs in or out, shows or changes a
// setting or a secret, changes a rule, approves or denies a request, unlocks or resets the ledger,
// resets the sandbox, writes a file, or calls the raw API; and creating or changing anything but
// a money move (buyers, webhooks, e-mails) is left to a person.

/** `requires`: inputs a money tool must be given although its verb's command line may leave them out (see TOOL_VERBS). */
export type ToolClass = { kind: 'read' } | { kind: 'money'; allow: AllowGroup; requires?: readonly string[] };

const read: ToolClass = { kind: 'read' };
const money = (allow: AllowGroup, requires?: readonly string[]): ToolClass => ({ kind: 'money', allow, ...(requires ? { requires } : {}) });

/** Verb paths as typed ("transactions refund") → what their tool is. */
export const TOOL_VERBS: Readonly<Record<string, ToolClass>> = {
  'transactions list': read,
  'transactions get': read,
  'transactions splits list': read,
  'transactions splits get': read,
  'transactions refund': money('refunds'),
  'transactions capture': money('captures'),
  // A new sale is keyed by its reference: without one, an agent's retry after a timeout would be
  // another sale. The tool asks for it, as the CLI's help tells scripts to.
  'transactions create': money('creates', ['reference_id']),
  'buyers list': read,
  'buyers get': read,
  'buyers search': read,
  'buyers find': read,
  'sellers list': read,
  'sellers get': read,
  'cards get': read,
  'boletos get': read,
  'boletos cancel': money('cancellations'),
  'receipts get': read,
  'receivables get': read,
  'receivables list': read,
  'plans list': read,
  'plans get': read,
  'subscriptions list': read,
  'subscriptions get': read,
  'subscriptions remove': money('cancellations'),
  'invoices list': read,
  'invoices get': read,
  'invoices refund': money('refunds'),
  'balances accounts': read,
  'balances history': read,
  'balances get': read,
  'balances current': read,
  'transfers list': read,
  'transfers get': read,
  'transfers transactions': read,
  'transfers explain': read,
  reconcile: read,
  'future-entries list': read,
  'events list': read,
  'events get': read,
  'webhooks list': read,
  'webhooks get': read,
  'ledger list': read,
  'ledger show': read,
  'ledger check': read,
  'approvals list': read,
  'approvals show': read,
  'approvals status': read,
};

/**
 * Flags no tool takes, whatever its verb: what reads or writes a file on the server's machine (the
 * server may run as another user, holding the key the agent does not), raw card data (it would pass
 * through the agent's context and logs: an agent charges a card on file), what forces a repeat
 * (only a person may: --again), and the waits an agent polls for instead.
 */
export const WITHHELD_FLAGS: ReadonlySet<string> = new Set([
  'again',
  'allowDuplicateReference',
  'wait',
  'file',
  'full',
  'concurrency',
  'allowDuplicates',
  'failedOut',
  'maxWait',
  'out',
  'save',
  'state',
  'cardFile',
  'cardNumber',
  'cvv',
  'holderName',
  'expMonth',
  'expYear',
]);
