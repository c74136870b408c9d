// What a command prints with `-o json`, read off the words that named it: `transfers list` prints
// transfers, `balances get` a balance. The command tests run against the sandbox, so a resource is
// typed as the sandbox serves it (the provider's description, where the sandbox has one) and
// checked at run time against the schema payctl itself reads it with; a field a resource does not
// have fails to compile, and a printed answer of another shape fails the test.

import * as z from 'zod/mini';
import type { Resource } from '../../src/provider/schemas/answers.js';
import type { ResourceOf } from '../../src/provider/answer-types.js';
import type {
  BalanceEntry,
  Buyer,
  CardView,
  Invoice,
  Plan,
  Receivable,
  Replay,
  SandboxEvent,
  SellerRecord,
  Source,
  SplitRule,
  Subscription,
  Transaction,
  Transfer,
  Webhook,
} from '../../src/sandbox/types.js';
import type { VolumeReport } from '../../src/sandbox/volume.js';

/** Each resource as the sandbox serves it; the others as payctl reads them. */
interface Served {
  transaction: Transaction;
  'split rule': SplitRule;
  card: CardView;
  /** A card token: its card as the seed shows it, without the last digits (seed 2.5). */
  'card token': { id: string; resource: 'token'; used: string; type: 'card'; card: Omit<CardView, 'last4_digits'> };
  buyer: Buyer & { resource: 'buyer' };
  seller: SellerRecord;
  source: Source;
  receivable: Receivable;
  plan: Plan;
  subscription: Subscription;
  invoice: Invoice;
  'balance history entry': BalanceEntry;
  transfer: Transfer;
  /** A webhook just created also carries its signing secret, shown once. */
  webhook: Webhook & { secret?: string };
  /** An event's object is the record it was raised for, whatever its resource. */
  event: Omit<SandboxEvent, 'payload'> & { payload: { object: Record<string, unknown> } };
  'event replay': Replay;
  'sandbox volume report': VolumeReport;
}

export type ServedResource<R extends Resource> = R extends keyof Served ? Served[R] : ResourceOf<R>;

const one = <R extends Resource>(resource: R) => ({ resource, list: false }) as const;
const list = <R extends Resource>(resource: R) => ({ resource, list: true }) as const;

/** What each `noun verb` (or `noun group verb`) prints: one resource or a list of them. */
export const printed = {
  'transactions create': one('transaction'),
  'transactions list': list('transaction'),
  'transactions get': one('transaction'),
  'transactions update': one('transaction'),
  'transactions refund': one('transaction'),
  'transactions capture': one('transaction'),
  'transactions cancellation-letter': one('cancellation letter'),
  'transactions splits list': list('split rule'),
  'transactions splits add': one('split rule'),
  'transactions splits get': one('split rule'),
  'transactions splits remove': one('removal'),
  'cards tokenize': one('card token'),
  'cards associate': one('card'),
  'cards get': one('card'),
  'cards remove': one('removal'),
  'buyers create': one('buyer'),
  'buyers list': list('buyer'),
  'buyers find': list('buyer'),
  'buyers get': one('buyer'),
  'buyers update': one('buyer'),
  'buyers search': one('buyer'),
  'buyers remove': one('removal'),
  'sellers create': one('seller'),
  'sellers list': list('seller'),
  'sellers get': one('seller'),
  'sellers update': one('seller'),
  'sellers remove': one('removal'),
  'sources create': one('source'),
  'sources get': one('source'),
  'sources remove': one('removal'),
  'boletos get': one('boleto'),
  'boletos cancel': one('boleto cancellation'),
  'boletos send': one('acknowledgement'),
  'receipts get': one('receipt'),
  'receipts email': one('acknowledgement'),
  'receipts sms': one('acknowledgement'),
  'receivables list': list('receivable'),
  'receivables get': one('receivable'),
  'plans create': one('plan'),
  'plans list': list('plan'),
  'plans get': one('plan'),
  'plans update': one('plan'),
  'plans remove': one('removal'),
  'subscriptions create': one('subscription'),
  'subscriptions list': list('subscription'),
  'subscriptions get': one('subscription'),
  'subscriptions update': one('subscription'),
  'subscriptions suspend': one('subscription'),
  'subscriptions reactivate': one('subscription'),
  'subscriptions remove': one('removal'),
  'invoices create': one('invoice'),
  'invoices list': list('invoice'),
  'invoices get': one('invoice'),
  'invoices approve': one('invoice'),
  'invoices refund': one('invoice'),
  'invoices remove': one('removal'),
  'balances get': one('balance'),
  'balances current': one('balance'),
  'balances accounts': list('balance'),
  'balances history': list('balance history entry'),
  'transfers list': list('transfer'),
  'transfers get': one('transfer'),
  'transfers transactions': list('transaction'),
  'future-entries list': list('future entry'),
  'webhooks create': one('webhook'),
  'webhooks list': list('webhook'),
  'webhooks get': one('webhook'),
  'webhooks remove': one('removal'),
  'events list': list('event'),
  'events get': one('event'),
  'events replay': one('event replay'),
  'sandbox pay': one('transaction'),
  'sandbox clock': one('sandbox clock'),
  'sandbox advance': one('sandbox clock'),
  'sandbox generate': one('sandbox volume report'),
} as const;

type Printed = typeof printed;

/** What `--dry-run` prints instead of sending: the request, its key masked. */
export const dryRunShown = z.looseObject({ dry_run: z.literal(true), method: z.string(), url: z.string(), headers: z.record(z.string(), z.string()), body: z.optional(z.unknown()) });
export type DryRunShown = z.infer<typeof dryRunShown>;

/** A row of a list with `--group-by`: its group, its count and its sums (decimal strings). */
export const groupRows = z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()])));
export type GroupRow = z.infer<typeof groupRows>[number];

/** Flags after which a command prints something else than its resource (a file's report). */
export const RESHAPING = ['--file'] as const;

/** Whether the words `A` hold `F` (as written: a word only known as a string is not `F`). */
type Has<A, F> = A extends readonly [infer H, ...infer R] ? (H extends F ? true : Has<R, F>) : A extends readonly [...infer R, infer L] ? (L extends F ? true : Has<R, F>) : false;

/** What `args` print with `-o json`, or unknown when the words name no resource or a flag reshapes it. */
export type PrintedBy<A extends readonly string[]> = Has<A, '--dry-run'> extends true ? DryRunShown : Has<A, '--group-by'> extends true ? GroupRow[] : ResourcePrinted<A>;

type ResourcePrinted<A extends readonly string[]> = A extends readonly [infer Noun extends string, infer Group extends string, infer Verb extends string, ...infer Rest extends readonly string[]]
  ? `${Noun} ${Group} ${Verb}` extends keyof Printed
    ? Shown<Printed[`${Noun} ${Group} ${Verb}`], Rest>
    : `${Noun} ${Group}` extends keyof Printed
      ? Shown<Printed[`${Noun} ${Group}`], [Verb, ...Rest]>
      : unknown
  : A extends readonly [infer Noun extends string, infer Verb extends string, ...infer Rest extends readonly string[]]
    ? `${Noun} ${Verb}` extends keyof Printed
      ? Shown<Printed[`${Noun} ${Verb}`], Rest>
      : unknown
    : unknown;

/** `entry`'s resource (or a list of them; only some of its fields with `--fields`) unless a flag of `Rest` reshapes it. */
type Shown<Entry, Rest> = Has<Rest, (typeof RESHAPING)[number]> extends false
  ? Entry extends { resource: infer R extends Resource; list: infer L }
    ? Has<Rest, '--fields'> extends true
      ? L extends true
        ? Partial<ServedResource<R>>[]
        : Partial<ServedResource<R>>
      : L extends true
        ? ServedResource<R>[]
        : ServedResource<R>
    : unknown
  : unknown;

/**
 * The entry of `printed` for `args`, `dry run` or `groups` for those flags, or undefined when they
 * print something else or only some fields (which the resource's schema cannot check).
 */
export function printedBy(args: readonly string[]): Printed[keyof Printed] | 'dry run' | 'groups' | undefined {
  if (args.includes('--dry-run')) return 'dry run';
  if (args.includes('--group-by')) return 'groups';
  if (args.some((arg) => (RESHAPING as readonly string[]).includes(arg) || arg === '--fields' || arg.startsWith('--fields='))) return undefined;
  const [noun, group, verb] = args;
  const key = [`${noun} ${group} ${verb}`, `${noun} ${group}`].find((words): words is keyof Printed => words in printed);
  return key && printed[key];
}

/** What `reconcile -o json` prints: each transfer's line, the totals per seller, and the receivables no transfer accounts for. */
export const reconcileReport = z.looseObject({
  transfers: z.array(z.looseObject({ transfer: z.string(), result: z.string(), amount: z.string(), difference: z.string() })),
  sellers: z.array(z.looseObject({ amount: z.string() })),
  orphans: z.array(z.looseObject({ kind: z.string(), receivable: z.string() })),
  matched: z.boolean(),
});

/** A money move as `ledger list` and `ledger show` print it. */
export const ledgerIntent = z.looseObject({
  id: z.number(),
  holder: z.string(),
  operator_name: z.nullable(z.string()),
  operation: z.string(),
  action: z.string(),
  key: z.string(),
  target: z.string(),
  amount: z.nullable(z.string()),
  state: z.string(),
  proof: z.nullable(z.string()),
});
export const ledgerList = z.array(ledgerIntent);
/** What `ledger show` prints: the moves on a target, and its locks. */
export const ledgerShown = z.looseObject({ target: z.string(), intents: ledgerList, locks: z.array(z.unknown()) });

/** An approval request as `approvals list` and `approvals show` print it. */
export const approvalRequest = z.looseObject({
  id: z.string(),
  state: z.string(),
  operation: z.string(),
  summary: z.string(),
  amount: z.nullable(z.string()),
  target: z.nullable(z.string()),
  requester: z.string(),
  requester_kind: z.string(),
  decided_by: z.nullable(z.string()),
  reason: z.nullable(z.string()),
  intent_id: z.nullable(z.number()),
  expires_at: z.string(),
});
export const approvalList = z.array(approvalRequest);
/** What `approvals status` prints: a request's state in short. */
export const approvalStatus = z.looseObject({ id: z.string(), state: z.string(), decided_by: z.nullable(z.string()), reason: z.nullable(z.string()), intent_id: z.nullable(z.number()) });
/** What a money command prints on stdout when a rule sends its move to a person (exit 13): the request as the ledger keeps it. */
export const waitingRequest = z.looseObject({
  id: z.string(),
  state: z.string(),
  summary: z.string(),
  requester: z.string(),
  requester_kind: z.string(),
  amount_cents: z.nullable(z.number()),
  replay: z.nullable(z.array(z.string())),
});

/** A rule, or a change of the rules waiting for approval, as `policy list` and `policy add` print it. */
export const printedRule = z.object({
  id: z.string(),
  state: z.string(),
  rule: z.nullable(z.string()),
  operation: z.nullable(z.string()),
  actor: z.nullable(z.string()),
  kind: z.nullable(z.string()),
  amount: z.nullable(z.string()),
  per: z.nullable(z.string()),
  expires_hours: z.nullable(z.number()),
  confirm_at_client_up_to: z.nullable(z.string()),
  set_by: z.string(),
  set_by_name: z.nullable(z.string()),
  set_at: z.string(),
  approved_by: z.nullable(z.string()),
  approved_by_name: z.nullable(z.string()),
  approved_at: z.nullable(z.string()),
  removed_by: z.nullable(z.string()),
  removed_by_name: z.nullable(z.string()),
  removed_at: z.nullable(z.string()),
  change: z.nullable(z.string()),
  changes_rule: z.nullable(z.string()),
  expires_at: z.nullable(z.string()),
});
export const printedRules = z.array(printedRule);
