import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import type { SqlValue } from '../../platform/sqlite.js';
import { SANDBOX_BANK_ACCOUNT, SANDBOX_FILES_ORIGIN, SANDBOX_MARKETPLACE_ID } from '../../provider/sandbox-account.js';
import { cardPaymentMethodStrict } from '../../provider/schemas/cards.js';
import {
  boletoPaymentMethodStrict,
  feeDetailsStrict,
  historyEntryStrict,
  installmentPlanStrict,
  pixPaymentMethodStrict,
  transactionStrict,
} from '../../provider/schemas/transaction.js';
import { balanceEntryStrict, receivableStrict, transferStrict } from '../../provider/schemas/finance.js';
import { invoiceCustomerStrict, invoiceStrict, planStrict, subscriptionStrict } from '../../provider/schemas/recurrence.js';
import { eventStrict, replayStrict, webhookStrict } from '../../provider/schemas/events.js';
import { addressStrict, buyerStrict, sellerStrict } from '../../provider/schemas/parties.js';
import { sourceStrict } from '../../provider/schemas/source.js';
import type { IdCodes } from './id-codes.js';
import {
  bool,
  columnsOf,
  derived,
  fixed,
  flag,
  fromParent,
  id as idField,
  ids,
  mentioning,
  word,
  instant,
  madeOnce,
  integer,
  json,
  money,
  moneyFrom,
  nested,
  numeric,
  oneOf,
  packValues,
  readLast,
  since,
  packInto,
  text as textField,
  tuples,
  unpack,
  unpackValues,
  valuesText,
  type ColumnType,
  type Doc,
  type Field,
  type Row,
} from './fields.js';
import { fieldsOf } from './from-schema.js';
import { PRODUCTS } from '../volume-sales.js';

// The sandbox's tables. Every collection of the state (types.ts) is a table of JSON documents
// keyed as the state keys it: by position for the lists that only grow (transactions,
// receivables, events, …), by id for the rest. Next to each document sit the few fields the
// routes look records up or list them by, as columns with indexes, so a lookup or a page is an
// indexed query however many records there are.
//
// Records that have events (transactions, buyers, plans, subscriptions, invoices) count their
// versions: an event refers to the version it was raised for, kept in `versions` while an event
// refers to it, instead of carrying a copy of the record. The current version is the row itself,
// so a record no event refers to (a generated sale) is written once.
//
// The largest collections (transactions, receivables, balance entries, transfers, cards, buyers)
// keep no JSON: each field is a column (fields.ts), and `doc` is null unless a record has another shape.
// The versions kept for events hold the values of those fields without their keys (versionText).

export type { Doc };

export interface Column {
  /** ANY: an id, kept as id-codes.ts keeps ids (a value looked up in it is coded the same way first). */
  type: 'TEXT' | 'INTEGER' | 'ANY';
  of(doc: Doc, codes: IdCodes): SqlValue;
}

export interface TableSpec {
  name: string;
  /**
   * INTEGER for the lists that only grow (the key is the position), TEXT for records keyed by id:
   * the key kept as id-codes.ts keeps ids (mostly a small number, so a new record's key lands
   * next to the last one's in the key's index instead of on a random page of it).
   */
  key: 'INTEGER' | 'TEXT';
  /** Its records count their versions, and events refer to one (see above). */
  versioned?: boolean;
  columns: Record<string, Column>;
  indexes: string[][];
  /** Columns mostly null: their indexes leave the null rows out (a lookup by value never needs them). */
  sparse?: string[];
  /**
   * The document as columns (fields.ts), in its key order; a field may keep its value in one of
   * `columns`. The versions kept for events hold them as one text instead (versionText).
   */
  fields?: Field[];
}

/** A kind of lookup column: the value `of` picks from a document, as `convert` keeps it (null when it has none). */
const lookup =
  (type: Column['type'], convert: (value: unknown, codes: IdCodes) => SqlValue) =>
  (of: (doc: Doc) => unknown): Column => ({ type, of: (doc, codes) => convert(of(doc), codes) });
const text = lookup('TEXT', (value) => (typeof value === 'string' ? value : null));
const idColumn = lookup('ANY', (value, codes) => (typeof value === 'string' ? codes.code(value) : null));
const ms = lookup('INTEGER', (value) => {
  if (typeof value === 'number') return value;
  const parsed = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isFinite(parsed) ? parsed : null;
});
const cents = lookup('INTEGER', (value) =>
  typeof value === 'string' && /^-?\d+(\.\d{1,2})?$/.test(value) ? Math.round(Number(value) * 100) : null,
);
const whole = lookup('INTEGER', (value) => (typeof value === 'number' ? value : null));

type Txn = { txn: Doc & { payment_method?: { id?: unknown } | null } };

/**
 * The sandbox's own words, each kept as its place in this list wherever a field is a `word`: a
 * sale's history repeats a handful of them. The list is part of the database's format (DB_FORMAT).
 */
const VOCABULARY = [
  '',
  '0',
  '00',
  '05',
  'sandbox',
  'succeeded',
  'failed',
  'pending',
  'pre_authorized',
  'paid',
  'created',
  'authorization',
  'capture',
  'void',
  'update',
  'cancellation',
  'Success',
  'Transaction approved and captured.',
  'Transaction pre-authorized.',
  'Transaction captured.',
  'Transaction voided.',
  'Partial void applied.',
  'Awaiting payment.',
  'Payment received.',
  'Card declined by the issuer (do not honor).',
  'Boleto canceled at the request of the seller.',
  'sandbox_credit_fee',
  'sandbox_pix_fee',
  'sandbox_boleto_fee',
  'sandbox_bolepix_fee',
  'Sandbox credit card fee',
  'Sandbox PIX fee',
  'Sandbox boleto fee',
  'Visa',
  'MasterCard',
  'Elo',
  'Amex',
  'Hipercard',
  'Unknown',
  '1.0.0',
  'DYNAMIC',
  'LOJA SANDBOX',
  'dispute',
  'chargeback',
  'Disputed by the cardholder.',
  'Dispute decided for the seller; the sale stands.',
  'Charged back to the cardholder.',
  'not_paid',
  'canceled',
  '341',
  'Loja Sandbox Ltda',
  'American Express',
];
const wordField = word(VOCABULARY);

/** Fields of one kind, one for each key, in the keys' order. */
const alike = (make: (key: string) => Field, ...keys: string[]): Field[] => keys.map((key) => make(key));

/** An instant of a sale's part (a line of its history, its payment method) as milliseconds after the sale's own. */
const sinceTheSale = (key: string, column: string) => since(key, column, (_doc, sale) => sale?.created_at);

/** One line of a transaction's history, kept in its version without its keys. */
const HISTORY = fieldsOf(historyEntryStrict, {
  id: idField,
  transaction: (key) => fromParent(key, 'id'),
  amount: (key) => moneyFrom(key, 'cents', (_line, sale) => sale?.original_amount),
  operation_type: wordField,
  status: wordField,
  response_code: wordField,
  response_message: wordField,
  gatewayResponseTime: wordField,
  authorizer: wordField,
  created_at: (key) => sinceTheSale(key, 'created_ms'),
});

/** Where the API serves a resource of the sandbox's marketplace, by its id (a plan's and a subscription's is its uuid). */
const uriOf = (resource: string, idKey = 'id') => derived('uri', (doc) => `/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/${resource}/${String(doc[idKey])}`);

/** How every record the API serves opens: its id, then the name of its resource. */
const opening = (resource: string): Field[] => [idField('id'), fixed('resource', resource)];
/** When a record was made and last changed. */
const STAMPS: Field[] = [instant('created_at', 'created_ms'), instant('updated_at', 'updated_ms')];
/** The same, for a record whose fields are made from its schema (fieldsOf). */
const STAMP_HINTS = { created_at: (key: string) => instant(key, 'created_ms'), updated_at: (key: string) => instant(key, 'updated_ms') };
/** A sale's payment method's stamps, as its sale's instant mostly is. */
const METHOD_STAMPS = { created_at: (key: string) => sinceTheSale(key, 'created_ms'), updated_at: (key: string) => sinceTheSale(key, 'updated_ms') };

/** A card as a sale's payment method (cards.ts cardPaymentMethod). */
const CARD_METHOD = fieldsOf(cardPaymentMethodStrict, {
  id: idField,
  card_brand: wordField,
  // As cards.ts names a card to people: "Visa final 1111".
  description: (key) => derived(key, (doc) => `${doc.card_brand === 'Unknown' ? 'Cartão' : String(doc.card_brand)} final ${String(doc.last4_digits)}`),
  is_active: (key) => fixed(key, true),
  is_valid: (key) => fixed(key, true),
  is_verified: (key) => fixed(key, false),
  customer: idField,
  fingerprint: idField,
  uri: () => uriOf('cards'),
  ...METHOD_STAMPS,
});

/** Where a PIX charge's payload is served (transactions-create.ts planPix), before the charge's own UUID. */
const PIX_LINK_HEAD = 'https://sandbox.payctl.invalid/pix/qr/v2/';
/**
 * What the sandbox's PIX codes (payment-codes.ts pixEmv) hold around the payload's location for the
 * sandbox's seller: a code that differs (another seller's name) keeps what differs.
 */
const PIX_EMV_PARTS = ['00020101021226910014br.gov.bcb.pix2569', '5204000053039865802BR5917LOJA SANDBOX LTDA6009SAO PAULO62070503***6304'];

/** A PIX charge as a sale's payment method (transactions-create.ts). */
const PIX_METHOD = fieldsOf(pixPaymentMethodStrict, {
  id: idField,
  provider: wordField,
  version: wordField,
  expiration_date: (key) => sinceTheSale(key, 'expires_ms'),
  // A charge's link and code name its location, and the code the link: each kept once.
  pix_link: (key) => mentioning(key, key, [() => PIX_LINK_HEAD]),
  qr_code: (key) =>
    readLast(
      nested(key, [
        mentioning('emv', 'emv', [(_code, pix) => (typeof pix?.pix_link === 'string' ? pix.pix_link.slice('https://'.length) : undefined), ...PIX_EMV_PARTS.map((part) => () => part)]),
      ]),
    ),
  paid_at: (key) => sinceTheSale(key, 'paid_ms'),
  ...METHOD_STAMPS,
  status: wordField,
});

/**
 * A boleto as a sale's payment method (transactions-create.ts boletoBase): kept as JSON whole it
 * was four times the rest of its sale. Its file's URL is made from its id rather than kept.
 */
const BOLETO_METHOD = fieldsOf(boletoPaymentMethodStrict, {
  id: idField,
  service_boleto_id: idField,
  recipient: wordField,
  bank_code: wordField,
  customer: idField,
  url: (key) => derived(key, (doc) => `${SANDBOX_FILES_ORIGIN}/boletos/${String(doc.id)}.html`),
  paid_at: (key) => sinceTheSale(key, 'paid_ms'),
  ...METHOD_STAMPS,
  status: wordField,
});

/** A card sale's instalments (transactions-create.ts parseInstallments); null without. */
const INSTALLMENTS = fieldsOf(installmentPlanStrict, {});

/** What a collected sale paid in fees (transaction-model.ts refreshFees); `{}` while none. */
const FEE_DETAILS = fieldsOf(feeDetailsStrict, {
  amount: (key) => money(key, 'cents'),
  prepaid: (key) => fixed(key, false),
  currency: (key) => fixed(key, 'BRL'),
  type: wordField,
  description: wordField,
});

/**
 * A stored transaction (types.ts StoredTransaction): the sandbox's own bookkeeping around the
 * transaction as the API shows it, whose fields are its schema's (provider/schemas/transaction.ts).
 */
const TRANSACTION: Field[] = [
  integer('seq'),
  // In the lookup column of the same name.
  integer('created_ms'),
  integer('remaining_cents'),
  idField('card_id'),
  nested(
    'txn',
    fieldsOf(transactionStrict, {
      id: idField,
      amount: (key) => money(key, 'cents'),
      original_amount: (key) => money(key, 'original_cents'),
      currency: (key) => fixed(key, 'BRL'),
      gateway_authorizer: (key) => fixed(key, 'sandbox'),
      app_transaction_uid: (key) => fixed(key, null),
      sales_receipt: idField,
      on_behalf_of: idField,
      customer: idField,
      statement_descriptor: wordField,
      // What a generated sale sells.
      description: word(PRODUCTS),
      // Read back last: its stamps are kept after the sale's created_at, a later key.
      payment_method: (key) => readLast(oneOf(key, key, [CARD_METHOD, PIX_METHOD, BOLETO_METHOD])),
      installment_plan: (key) => oneOf(key, key, [INSTALLMENTS]),
      fees: (key) => money(key, 'fee_cents'),
      fee_details: (key) => oneOf(key, key, [FEE_DETAILS]),
      uri: () => uriOf('transactions'),
      expected_on: (key) => instant(key, 'expected_ms'),
      // After the stored instant (mostly the same), and the update after it: mostly 0, no byte in a row.
      created_at: (key) => since(key, 'created_at_ms', (_txn, stored) => stored?.created_ms),
      updated_at: (key) => since(key, 'updated_ms', (txn) => txn.created_at),
      history: (key) => tuples(key, key, HISTORY),
    }),
  ),
  json('receivable_indexes'),
  integer('credited_cents'),
];
const txn = (doc: Doc) => (doc as unknown as Txn).txn;

/** A buyer's, payer's or seller's address (buyers.ts emptyAddress): every line, each a text or null. */
const ADDRESS = fieldsOf(addressStrict, {});
const address = (key: string) => oneOf(key, key, [ADDRESS]);

/** How a record served at an address of its own keeps its id, its URI (made from the id) and its stamps. */
const servedAt = (resource: string) => ({ id: idField, uri: () => uriOf(resource), ...STAMP_HINTS });

/** A buyer as registerBuyer makes it (buyers.ts), whose fields are its schema's (provider/schemas/parties.ts). */
const BUYER = fieldsOf(buyerStrict, { ...servedAt('buyers'), address, delinquent: (key) => fixed(key, false), default_credit: idField });

/** A seller as the sellers API makes it (sellers.ts blankSeller). */
const SELLER = fieldsOf(sellerStrict, { ...servedAt('sellers'), address, business_address: address });

/** A source (sources.ts planCreateSource); its card as GET /cards/{id} serves it. */
const SOURCE = fieldsOf(sourceStrict, { ...servedAt('sources'), on_behalf_of: idField, installment_plan: (key) => oneOf(key, key, [INSTALLMENTS]) });

/** A recurrence plan (plans.ts). */
const PLAN = fieldsOf(planStrict, { uuid: idField, uri: () => uriOf('recurrence_plans', 'uuid'), ...STAMP_HINTS });

/** A stored subscription (types.ts StoredSubscription): the bookkeeping of its schedule around the subscription served. */
const SUBSCRIPTION: Field[] = [
  textField('anchor'),
  integer('step'),
  json('billed'),
  nested(
    'sub',
    fieldsOf(subscriptionStrict, {
      uuid: idField,
      plan: idField,
      on_behalf_of: idField,
      customer: idField,
      suspended_at: (key) => instant(key, 'suspended_ms'),
      card: idField,
      uri: () => uriOf('recurrence_subscriptions', 'uuid'),
      ...STAMP_HINTS,
    }),
  ),
];

/** The buyer an invoice bills (invoices.ts invoiceCustomer). */
const INVOICE_CUSTOMER = fieldsOf(invoiceCustomerStrict, { uuid: idField });

/** An invoice (invoices.ts issueInvoice). */
const INVOICE = fieldsOf(invoiceStrict, {
  subscription: idField,
  on_behalf_of: idField,
  customer: idField,
  invoice_customer: (key) => oneOf(key, key, [INVOICE_CUSTOMER]),
  paid_at: (key) => instant(key, 'paid_ms'),
  voided_at: (key) => instant(key, 'voided_ms'),
  // `transaction` is a word of SQL.
  transaction: (key) => idField(key, 'txn'),
  ...servedAt('invoices'),
});

/**
 * An event as stored (types.ts StoredEvent): the event served but its payload, then the record it
 * was raised for and that record's version, whose payload is served (events.ts servedEvent).
 */
const EVENT: Field[] = [
  ...fieldsOf(z.omit(eventStrict, { payload: true }), { id: idField, created_at: (key) => instant(key, 'created_ms') }),
  json('source'),
  integer('version', 'src_version'),
];

/** A stored webhook (types.ts StoredWebhook): the webhook served, its secret and how far its deliveries are. */
const WEBHOOK: Field[] = [
  nested('webhook', fieldsOf(webhookStrict, servedAt('webhooks'))),
  textField('secret'),
  integer('cursor'),
  integer('delivered'),
  integer('failed'),
];

export const TABLES: TableSpec[] = [
  {
    name: 'transactions',
    key: 'INTEGER',
    versioned: true,
    columns: {
      id: idColumn((d) => txn(d).id),
      reference_id: text((d) => txn(d).reference_id),
      status: text((d) => txn(d).status),
      payment_type: text((d) => txn(d).payment_type),
      created_ms: ms((d) => d.created_ms),
      customer: idColumn((d) => txn(d).customer),
      // Only a boleto's: the one payment method looked up by its own id (boletos/{id}).
      boleto_id: idColumn((d) => (['boleto', 'bolepix'].includes(String(txn(d).payment_type)) ? txn(d).payment_method?.id : null)),
      sales_receipt: idColumn((d) => txn(d).sales_receipt),
      // The seller the sale was made for: seller-scoped lists (sellers/{id}/transactions).
      on_behalf_of: idColumn((d) => txn(d).on_behalf_of),
    },
    indexes: [
      ['id'],
      ['created_ms'],
      ['reference_id', 'created_ms'],
      ['status', 'created_ms'],
      ['payment_type', 'created_ms'],
      ['customer'],
      ['boleto_id'],
      ['sales_receipt'],
      ['on_behalf_of', 'created_ms'],
    ],
    // Most sales have no buyer and are not boletos: those indexes hold only the rows that do.
    sparse: ['customer', 'boleto_id'],
    fields: TRANSACTION,
  },
  {
    name: 'receivables',
    key: 'INTEGER',
    columns: {
      id: idColumn((d) => d.id),
      status: text((d) => d.status),
      recipient: idColumn((d) => d.recipient),
      expected_ms: ms((d) => d.expected_on),
      cents: cents((d) => d.amount),
    },
    indexes: [['id'], ['status', 'recipient', 'expected_ms'], ['status', 'expected_ms'], ['recipient', 'expected_ms']],
    fields: fieldsOf(receivableStrict, {
      id: idField,
      recipient: idField,
      transaction: (key) => idField(key, 'txn'),
      split_rule: idField,
      installment: numeric,
      liable: flag,
      amount: (key) => money(key, 'cents'),
      gross_amount: (key) => money(key, 'gross_cents'),
      anticipation_fee: (key) => fixed(key, '0.00'),
      paid_at: (key) => instant(key, 'paid_ms'),
      created_at: (key) => instant(key, 'created_ms'),
      transaction_created_at: (key) => instant(key, 'txn_created_ms'),
      canceled_at: (key) => instant(key, 'canceled_ms'),
      expected_on: (key) => instant(key, 'expected_ms'),
      transfer: idField,
    }),
  },
  {
    name: 'events',
    key: 'INTEGER',
    columns: {
      id: idColumn((d) => d.id),
      type: text((d) => d.type),
      created_ms: ms((d) => d.created_at),
      src_top: text((d) => (d.source as [string, string] | undefined)?.[0]),
      src_key: text((d) => (d.source as [string, string] | undefined)?.[1]),
      src_version: whole((d) => d.version),
    },
    indexes: [['id'], ['type'], ['created_ms'], ['src_top', 'src_key', 'src_version']],
    fields: EVENT,
  },
  {
    name: 'balance_entries',
    key: 'INTEGER',
    columns: {
      account: idColumn((d) => d.account),
      created_ms: ms((d) => d.created_at),
      operation: text((d) => d.operation),
      type: text((d) => d.type),
      // `transaction` is a word of SQL.
      txn: idColumn((d) => d.transaction),
      transfer: idColumn((d) => d.transfer),
    },
    indexes: [['account', 'created_ms'], ['created_ms']],
    fields: fieldsOf(balanceEntryStrict, {
      id: idField,
      account: idField,
      amount: (key) => money(key, 'cents'),
      balance: (key) => money(key, 'balance_cents'),
      currency: (key) => fixed(key, 'BRL'),
      description: (key) => mentioning(key, key, [(d) => d.transaction, (d) => d.transfer]),
      transaction: (key) => idField(key, 'txn'),
      transfer: idField,
      created_at: (key) => instant(key, 'created_ms'),
    }),
  },
  {
    name: 'transfers',
    key: 'INTEGER',
    columns: { id: idColumn((d) => d.id), status: text((d) => d.status), created_ms: ms((d) => d.created_at), on_behalf_of: idColumn((d) => d.on_behalf_of) },
    indexes: [['id'], ['created_ms'], ['status', 'created_ms'], ['on_behalf_of', 'created_ms']],
    fields: fieldsOf(transferStrict, {
      id: idField,
      amount: (key) => money(key, 'cents'),
      currency: (key) => fixed(key, 'BRL'),
      description: (key) => mentioning(key, key, [(d) => (d.transactions as unknown[] | undefined)?.[0], (d) => d.id]),
      on_behalf_of: idField,
      account: idField,
      bank_account: (key) => fixed(key, { ...SANDBOX_BANK_ACCOUNT }),
      transactions: ids,
      receivables: ids,
      fees: (key) => money(key, 'fee_cents'),
      uri: () => uriOf('transfers'),
      created_at: (key) => instant(key, 'created_ms'),
      updated_at: (key) => derived(key, (doc) => doc.created_at),
    }),
  },
  {
    name: 'deliveries',
    key: 'INTEGER',
    columns: {},
    indexes: [],
    // A boleto or receipt "sent" (deliveries.ts): the sandbox's own record, served by no route.
    fields: [...alike(textField, 'kind', 'resource_id', 'method', 'target'), instant('at', 'at_ms')],
  },
  {
    name: 'replays',
    key: 'TEXT',
    columns: {},
    indexes: [],
    fields: fieldsOf(replayStrict, { id: idField, event: idField, webhooks: ids, at: (key) => instant(key, 'at_ms') }),
  },
  { name: 'sellers', key: 'TEXT', columns: {}, indexes: [], fields: SELLER },
  {
    name: 'buyers',
    key: 'TEXT',
    versioned: true,
    // Listed by creation a page at a time: a generated volume has tens of thousands.
    columns: { taxpayer_id: text((d) => d.taxpayer_id), created_ms: ms((d) => d.created_at) },
    indexes: [['taxpayer_id'], ['created_ms']],
    fields: BUYER,
  },
  {
    name: 'cards',
    key: 'TEXT',
    columns: { customer: idColumn((d) => d.customer) },
    indexes: [['customer']],
    fields: [
      idField('id'),
      ...alike(textField, 'brand', 'first4', 'first6', 'last4', 'expiration_month', 'expiration_year', 'holder_name'),
      idField('customer'),
      idField('fingerprint'),
      bool('declines'),
      ...STAMPS,
    ],
  },
  {
    name: 'tokens',
    key: 'TEXT',
    columns: { card_id: idColumn((d) => d.card_id) },
    indexes: [['card_id']],
    // The sandbox's note of a token (tokens.ts): the card it stands for and whether it was used.
    fields: [idField('id'), idField('card_id'), bool('used'), instant('created_at', 'created_ms')],
  },
  { name: 'sources', key: 'TEXT', columns: {}, indexes: [], fields: SOURCE },
  { name: 'plans', key: 'TEXT', versioned: true, columns: { status: text((d) => d.status) }, indexes: [['status']], fields: PLAN },
  {
    name: 'subscriptions',
    key: 'TEXT',
    versioned: true,
    columns: { status: text((d) => (d.sub as Doc | undefined)?.status) },
    indexes: [['status']],
    fields: SUBSCRIPTION,
  },
  { name: 'invoices', key: 'TEXT', versioned: true, columns: { status: text((d) => d.status), customer: idColumn((d) => d.customer) }, indexes: [['status'], ['customer']], fields: INVOICE },
  {
    name: 'accounts',
    key: 'TEXT',
    columns: {},
    indexes: [],
    // A seller's or buyer's balance account (ledger.ts newAccount).
    fields: [
      ...opening('account'),
      textField('type'),
      idField('owner'),
      fixed('currency', 'BRL'),
      money('current_balance', 'balance_cents'),
      uriOf('balances'),
      ...STAMPS,
    ],
  },
  { name: 'webhooks', key: 'TEXT', columns: {}, indexes: [], fields: WEBHOOK },
];

export const TABLE_BY_NAME = new Map(TABLES.map((t) => [t.name, t]));

/**
 * Bumped when a codec changes how it keeps a value (fields.ts), or a word of VOCABULARY moves.
 * A database of another format is not read or converted: nothing of payctl was released before
 * this one, so it is recreated with a fresh seed (database.ts).
 */
const CODEC_FORMAT = 18;

/** What a list of fields keeps where: each key, its column and type, its constant, the fields below it and its words. */
const layoutOf = (fields: readonly Field[]): unknown[] =>
  fields.map((field) => [
    field.key,
    field.column ?? null,
    field.type ?? null,
    field.constant ? [field.constant.value] : null,
    field.inner && layoutOf(field.inner),
    field.shapes?.map(layoutOf),
    field.words ?? null,
  ]);

/**
 * The format of this build's databases: CODEC_FORMAT, then a digest of every table's columns and
 * fields. The field lists are made from the provider's schemas, so a field added to a schema gives
 * databases another format by itself, and one made before it is recreated rather than misread.
 */
export const DB_FORMAT = `${CODEC_FORMAT}.${createHash('sha256')
  .update(JSON.stringify(TABLES.map((table) => [table.name, table.key, Object.entries(table.columns).map(([name, column]) => [name, column.type]), layoutOf(table.fields ?? [])])))
  .digest('hex')
  .slice(0, 8)}`;

/**
 * A field table's columns beyond its lookup columns: its scalar fields each in a column of its
 * own, and its JSON fields (a sale's payment method, history, metadata, …) together in one column,
 * `json`, as one JSON array: reading a row back is one JSON.parse, not one for each.
 */
interface FieldColumns {
  /** The columns stored: the scalar fields', then `json` when there is one. */
  stored: Array<[string, ColumnType]>;
  json: string[];
}

/** `make` of a table, worked out once for each table. */
const perTable = <T>(make: (table: TableSpec) => T) => madeOnce(make);

const fieldColumns = perTable((table): FieldColumns => {
  const own = columnsOf(table.fields ?? []).filter(([name]) => !(name in table.columns));
  const scalars = own.filter(([, type]) => type !== 'JSON');
  const json = own.filter(([, type]) => type === 'JSON').map(([name]) => name);
  return { stored: json.length > 0 ? [...scalars, ['json', 'JSON']] : scalars, json };
});

/**
 * The text a version of a record is kept as: for a table with fields, the JSON array of the
 * values its fields keep, in column order (no keys, no constants); else, or when the record does
 * not have the fields' shape, the document itself.
 */
export function versionText(table: TableSpec, doc: Doc, codes: IdCodes): string {
  const packed = table.fields && packValues(table.fields, doc, codes);
  return packed ? valuesText(table.fields as Field[], packed) : JSON.stringify(doc);
}

/** The document a version's text holds (versionText). */
export function docOfVersion(table: TableSpec, text: string, codes: IdCodes): Doc {
  // Its JSON values come back parsed with the rest: unpackValues takes them as they are.
  const value = JSON.parse(text) as Doc | unknown[];
  return Array.isArray(value) ? unpackValues(table.fields ?? [], value, codes) : value;
}

/** Every column of a table but its key, in the order rowValues gives their values. */
export const storedColumns = perTable((table) => [
  ...(table.versioned ? ['version'] : []),
  'doc',
  ...Object.keys(table.columns),
  ...fieldColumns(table).stored.map(([name]) => name),
]);

/**
 * The values of storedColumns for `doc`. A field table keeps the document in its columns, or
 * whole in `doc` (its own columns null) when it does not have the fields' shape or a field's
 * value differs from the lookup column of the same name.
 */
export function rowValues(table: TableSpec, doc: Doc, codes: IdCodes, version?: number): SqlValue[] {
  if (table.fields) {
    const names = storedColumns(table);
    const values = new Array<SqlValue>(names.length + fieldColumns(table).json.length).fill(null);
    if (packInto(table.fields, doc, values, slotsOf(table), codes)) {
      if (table.versioned) values[0] = version as number;
      for (const [slot, column] of ownLookups(table)) values[slot] = column.of(doc, codes);
      // The JSON fields' texts, placed past the columns, go into the one JSON column as the values they are.
      if (fieldColumns(table).json.length > 0) values[names.length - 1] = `[${values.splice(names.length).join(',')}]`;
      return values;
    }
  }
  const lookups = Object.values(table.columns).map((column) => column.of(doc, codes));
  return [...(table.versioned ? [version as number] : []), JSON.stringify(doc), ...lookups, ...fieldColumns(table).stored.map(() => null)];
}

/** Where packInto puts each column a field keeps: its place among storedColumns; a JSON field's past them, in order. */
const slotsOf = perTable((table) => {
  const names = storedColumns(table);
  const slots = new Map(names.map((name, i) => [name, i]));
  fieldColumns(table).json.forEach((name, j) => slots.set(name, names.length + j));
  return slots;
});

/**
 * The lookup columns of a field table that no field keeps, each with its place among
 * storedColumns: one a field keeps too has its value from the field already. A field and a lookup
 * column of one name keep a value alike (both a text, an integer or an id, and a value the field
 * cannot keep makes the record whole JSON): checked here once, for each table.
 */
const ownLookups = perTable((table) => {
  const kept = new Map(columnsOf(table.fields ?? []));
  return Object.entries(table.columns).flatMap(([name, column]): Array<[number, Column]> => {
    const type = kept.get(name);
    if (type === undefined) return [[slotsOf(table).get(name) as number, column]];
    if (type !== column.type) throw new Error(`sandbox table ${table.name}: column ${name} is kept as ${type} by its field, ${column.type} for lookups`);
    return [];
  });
});

/** The document a row holds. */
export function docOf(table: TableSpec, row: Row, codes: IdCodes): Doc {
  if (typeof row.doc === 'string') return JSON.parse(row.doc) as Doc;
  const { json } = fieldColumns(table);
  if (json.length > 0) {
    // The row is this read's own: its JSON values are put in it, parsed, in place.
    const values = JSON.parse(String(row.json)) as unknown[];
    json.forEach((name, i) => (row[name] = values[i]));
  }
  return unpack(table.fields ?? [], row, codes);
}

/** A record's key as its table keeps it: a list's position as the number, an id as `codes` keeps ids. */
export function storedKey(table: TableSpec, key: string | number, codes: IdCodes): SqlValue {
  return table.key === 'INTEGER' ? Number(key) : codes.code(String(key));
}

/** The key, as the state names records (a text), that a row's `k` keeps (storedKey undone). */
export function keyOfRow(table: TableSpec, k: unknown, codes: IdCodes): string {
  return String(table.key === 'INTEGER' ? k : codes.id(k));
}

/** A column's definition; an id's column has no type, so SQLite keeps a number and a text each as it is. */
function sqlColumn(name: string, type: ColumnType | Column['type']): string {
  return type === 'ANY' ? name : `${name} ${type === 'INTEGER' ? 'INTEGER' : 'TEXT'}`;
}

/** `value` as it is compared with `column` of `table` in SQL: an id coded as the column keeps it. */
export function lookupValue(table: TableSpec, column: string, value: SqlValue, codes: IdCodes): SqlValue {
  return table.columns[column]?.type === 'ANY' && typeof value === 'string' ? codes.code(value) : value;
}

export function schemaSql(): string {
  const parts = [
    // Values of the state that are not collections: seller, clock, counters, payouts, …
    'CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, doc TEXT NOT NULL) WITHOUT ROWID',
    // k has no declared type, so an INTEGER key stays an integer and a TEXT key text.
    // A rowid table: SQLite stores rows of a few KB poorly in a WITHOUT ROWID one. The record's key
    // is kept as text whatever its table's key is, so it compares the same way everywhere (events
    // name it as text too).
    'CREATE TABLE IF NOT EXISTS versions (top TEXT NOT NULL, k TEXT NOT NULL, version INTEGER NOT NULL, doc TEXT NOT NULL)',
    'CREATE UNIQUE INDEX IF NOT EXISTS versions_key ON versions (top, k, version)',
  ];
  for (const table of TABLES) {
    const columns = Object.entries(table.columns).map(([name, column]) => sqlColumn(name, column.type));
    // A key of no declared type keeps an id's number and any other text each as it is.
    const key = table.key === 'INTEGER' ? 'k INTEGER PRIMARY KEY' : 'k PRIMARY KEY';
    const body = `${table.versioned ? 'version INTEGER NOT NULL, ' : ''}${table.fields ? 'doc TEXT' : 'doc TEXT NOT NULL'}`;
    const kept = fieldColumns(table).stored.map(([name, type]) => sqlColumn(name, type));
    parts.push(`CREATE TABLE IF NOT EXISTS ${table.name} (${[key, body, ...columns, ...kept].join(', ')})`);
    for (const index of table.indexes) {
      const partial = index.length === 1 && table.sparse?.includes(index[0] as string) ? ` WHERE ${index[0]} IS NOT NULL` : '';
      parts.push(`CREATE INDEX IF NOT EXISTS ${table.name}_${index.join('_')} ON ${table.name} (${index.join(', ')})${partial}`);
    }
  }
  return `${parts.join(';\n')};`;
}
