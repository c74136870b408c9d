import type * as z from 'zod/mini';
import type {
  bolepixPaymentMethodStrict,
  boletoBaseStrict,
  boletoPaymentMethodStrict,
  feeDetailsStrict,
  historyEntryStrict,
  installmentPlanStrict,
  pixPaymentMethodStrict,
  splitRuleStrict,
  transactionStrict,
} from '../provider/schemas/transaction.js';
import type { cardPaymentMethodStrict, cardStrict } from '../provider/schemas/cards.js';
import type { balanceEntryStrict, receivableStrict, transferStrict } from '../provider/schemas/finance.js';
import type { invoiceCustomerStrict, invoiceStrict, planStrict, subscriptionStrict } from '../provider/schemas/recurrence.js';
import type { eventStrict, replayStrict, webhookStrict } from '../provider/schemas/events.js';
import type { addressStrict, buyerStrict, sellerOwnerStrict, sellerStrict } from '../provider/schemas/parties.js';
import type { sourceRefStrict, sourceStrict } from '../provider/schemas/source.js';
import type { boletoRecordStrict, receiptStrict, removalStrict } from '../provider/schemas/documents.js';
import type { Log, Records } from './db/records.js';
import type { Session } from './db/session.js';
// Shapes of the state file and of the resources the sandbox serves. Response fields follow seed
// section 2 (types included); null stands for "no value", as the provider sends it.

/** When a record was made and last changed. */
interface Stamped {
  created_at: string;
  updated_at: string;
}

/** What a resource the API serves at an address of its own carries besides its own fields. */
interface Served extends Stamped {
  uri: string;
  metadata: Record<string, string>;
}

// The provider's records are its answers' strict schemas (provider/schemas/transaction.ts): a field
// added there is a field of the sandbox's record, stored in its place (db/schema.ts).
export type HistoryEntry = z.infer<typeof historyEntryStrict>;

/** Seed 2.3. The fingerprint is random per card: one derived from the PAN would let anyone with the file test guesses. */
export type CardPaymentMethod = z.infer<typeof cardPaymentMethodStrict>;

/** Seed 2.2: what every boleto carries, plain or with PIX, plus when it was paid. */
export type BoletoBase = z.infer<typeof boletoBaseStrict>;
export type BoletoPaymentMethod = z.infer<typeof boletoPaymentMethodStrict>;
export type BolepixPaymentMethod = z.infer<typeof bolepixPaymentMethodStrict>;
export type PixPaymentMethod = z.infer<typeof pixPaymentMethodStrict>;

/** A card on file as GET /cards/{id} serves it: seed 2.3 plus the provider's card-record fields. */
export type CardView = z.infer<typeof cardStrict>;

export type PaymentMethod = CardPaymentMethod | BoletoPaymentMethod | BolepixPaymentMethod | PixPaymentMethod;

export type PaymentType = Transaction['payment_type'];

/** `dispute`: the cardholder contests a card sale; `charged_back`: their bank took its money back (disputes.ts). */
export type TransactionStatus = Transaction['status'];

export type FeeDetails = z.infer<typeof feeDetailsStrict>;

export type InstallmentPlan = z.infer<typeof installmentPlanStrict>;

/** Another seller's part of a sale (splits.ts). */
export type SplitRule = z.infer<typeof splitRuleStrict>;

/** Seed 2.1, every field, plus reference_id and the sale's split rules. */
export type Transaction = z.infer<typeof transactionStrict>;

/** A transaction plus the bookkeeping the response does not show. */
export interface StoredTransaction {
  /** Insertion order: breaks ties between equal created_at values, so sorting is stable. */
  seq: number;
  created_ms: number;
  remaining_cents: number;
  card_id: string | null;
  /** Net of fees, what the seller's balance has been credited for this sale so far (ledger.ts). */
  credited_cents: number;
  /** The same for each split recipient, by seller id (ledger.ts). Absent when the sale was never split. */
  credited_by?: Record<string, number>;
  /** Where its receivables sit in `receivables`, so settling one sale never scans them all. */
  receivable_indexes: number[];
  txn: Transaction;
}

/** A card on file. Only what may be shown is kept: never the full number, never the CVV. */
export interface CardRecord extends Pick<CardPaymentMethod, CardShown> {
  brand: string;
  first4: string;
  /** The BIN, for receipts; with last4 it is the most PCI DSS lets anyone keep. */
  first6: string;
  last4: string;
  /** Whether the card is the declining test card, decided once while the number was in memory. */
  declines: boolean;
}

/** What a card on file keeps under the names its payment method shows. */
type CardShown = 'id' | 'expiration_month' | 'expiration_year' | 'holder_name' | 'customer' | 'fingerprint' | 'created_at' | 'updated_at';

export interface TokenRecord {
  id: string;
  card_id: string;
  used: boolean;
  created_at: string;
}

/** Every line may be missing: the buyers API takes whatever part of an address it is given. */
export type Address = z.infer<typeof addressStrict>;

/** A buyer as served and stored (provider/schemas/parties.ts). */
export type Buyer = z.infer<typeof buyerStrict>;

export interface Seller {
  id: string;
  name: string;
  statement_descriptor: string;
  /** CNPJ, digits only; printed on receipts. */
  taxpayer_id: string;
  address: Address;
}

/** The owner of a company seller: the person who answers for it, named as a buyer is. */
export type SellerOwner = z.infer<typeof sellerOwnerStrict>;

/**
 * A seller as the sellers API serves it: a person (`individual`, with a CPF) or a company
 * (`business`, with a CNPJ). Stored as served. The seeded seller is a company; `seller` above
 * keeps its name and documents for receipts and boletos.
 */
export type SellerRecord = z.infer<typeof sellerStrict>;

/** What every DELETE answers. */
export type Deleted = z.infer<typeof removalStrict>;

/** A source's customer or token: which one, and how much of the sale it covers. */
export type SourceRef = z.infer<typeof sourceRefStrict>;

/** The provider's source object, stored as served: only its status and update time change, when it is removed. */
export type Source = z.infer<typeof sourceStrict>;

/** A boleto record (GET /boletos/{id}): a boleto sale's payment method with the record's own fields. */
export type BoletoRecord = z.infer<typeof boletoRecordStrict>;

/** A sale's receipt: not stored, read from its transaction (receipts.ts). */
export type Receipt = z.infer<typeof receiptStrict>;

/** The provider's receivable: one per installment of a collected sale. Stored as served. */
export type Receivable = z.infer<typeof receivableStrict>;

/** A balance account: the seller's (moved by sales, refunds and transfers) or a buyer's. */
export interface Account extends Stamped {
  id: string;
  resource: 'account';
  type: 'seller' | 'buyer';
  /** The seller or buyer id. */
  owner: string;
  currency: string;
  /** Sum of the account's history. */
  current_balance: string;
  uri: string;
}

/** One line of an account's history: what moved, by how much, and the balance after it. */
export type BalanceEntry = z.infer<typeof balanceEntryStrict>;

export type EntryOperation = BalanceEntry['operation'];

/** A payout of receivables to the seller's bank account. */
export type Transfer = z.infer<typeof transferStrict>;

/** A boleto or receipt the sandbox "sent": nothing leaves the machine, the state keeps a record. */
export interface Delivery {
  kind: 'boleto' | 'receipt';
  /** The boleto or receipt id. */
  resource_id: string;
  method: 'email' | 'sms';
  target: string;
  at: string;
}

/** The provider's recurrence plan: what a subscription charges and how often. Stored as served. */
export type Plan = z.infer<typeof planStrict>;

/** Seed 2.6, every field with its type, plus metadata. */
export type Subscription = z.infer<typeof subscriptionStrict>;

export type SubscriptionStatus = Subscription['status'];

/** How a subscription's invoices are paid: charged to its card, or by a boleto issued for each. */
export type RecurrencePaymentMethod = Subscription['payment_method'];

/** A subscription plus the bookkeeping of its schedule, which the response does not show. */
export interface StoredSubscription {
  /**
   * Due dates are counted from this date, never chained one from the next, so a schedule that
   * starts on Jan 31 goes Feb 28, Mar 31 instead of drifting to the 28th.
   */
  anchor: string;
  /** due_date is the anchor plus this many of the plan's intervals. */
  step: number;
  /** Every due date billed: the record that keeps any date from being billed twice. */
  billed: string[];
  sub: Subscription;
}

/** The buyer an invoice bills, as it was when the invoice was issued. */
export type InvoiceCustomer = z.infer<typeof invoiceCustomerStrict>;

/** The provider's invoice: one billing of a subscription, or a one-off charge. Stored as served. */
export type Invoice = z.infer<typeof invoiceStrict>;

export type InvoiceStatus = Invoice['status'];

/** The provider's event delivery shape. */
export type SandboxEvent = z.infer<typeof eventStrict>;

/** An event as stored: it refers to the version of the record it was raised for (db/) instead of copying it. */
export interface StoredEvent extends Omit<SandboxEvent, 'payload'> {
  /** The record: its collection and key. */
  source?: [string, string];
  version?: number;
}

/** A registered webhook, as served. */
export type Webhook = z.infer<typeof webhookStrict>;

export interface StoredWebhook {
  webhook: Webhook;
  /** Signs every delivery (HMAC-SHA256 of the raw body); shown once, when the webhook is created. */
  secret: string;
  /** Index in `events` of the next event to consider: deliveries go out in order, each after the last. */
  cursor: number;
  delivered: number;
  /** Events given up on after retrying for the bounded time. */
  failed: number;
}

/** A replay asked for: one event, sent again to every webhook that wants it. */
export type Replay = z.infer<typeof replayStrict>;

/** The top-level values of the sandbox, beside its tables (kept in the database's `meta`). */
export interface StateValues {
  marketplace_id: string;
  seller: Seller;
  /** When payouts are next made (ISO): the payout hour of the earliest expected date of a pending receivable (payouts.ts), or null. */
  payouts: { next: string | null };
  /** How far the sandbox's clock runs ahead of real time; see clock.ts. */
  clock: { offset_seconds: number };
  counters: { seq: number; boleto_sequence: number; transaction_number: number };
}

/** The tables of the sandbox, each as `Table` makes it: repositories for a handler, plain values for a whole state. */
interface Tables<R extends 'records' | 'plain'> {
  /** Every seller the sellers API knows, the seeded one included (sellers.ts). */
  sellers: Keyed<R, SellerRecord>;
  buyers: Keyed<R, Buyer>;
  cards: Keyed<R, CardRecord>;
  tokens: Keyed<R, TokenRecord>;
  transactions: Listed<R, StoredTransaction>;
  sources: Keyed<R, Source>;
  receivables: Listed<R, Receivable>;
  deliveries: Listed<R, Delivery>;
  plans: Keyed<R, Plan>;
  subscriptions: Keyed<R, StoredSubscription>;
  invoices: Keyed<R, Invoice>;
  /** Accounts that have had an entry; every other seller or buyer account is at zero (ledger.ts). */
  accounts: Keyed<R, Account>;
  balance_entries: Listed<R, BalanceEntry>;
  transfers: Listed<R, Transfer>;
  /** Every state change of transactions, buyers, plans, subscriptions and invoices, in order (events.ts). */
  events: Listed<R, StoredEvent>;
  webhooks: Keyed<R, StoredWebhook>;
  replays: Keyed<R, Replay>;
}
type Keyed<R, T> = R extends 'records' ? Records<T> : Record<string, T>;
type Listed<R, T> = R extends 'records' ? Log<T> : T[];

/** The sandbox as a handler reads and changes it: its values, and a repository per table (db/records.ts). */
export interface SandboxState extends StateValues, Tables<'records'> {
  readonly session: Session;
}

/** The whole sandbox as plain values: the seed, and tests that need a state no request can produce. */
export interface StoredState extends StateValues, Tables<'plain'> {}
