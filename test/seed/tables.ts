// The seed's tables (sections 2.1–2.6 and the request tables of 4.1–4.3), field by field, with the
// seed's types. The field tests are generated from these lists, so a field added here is checked
// without writing a test for it, and a field the sandbox or the CLI drops fails by name.
//
// `nullWhen` marks the only fields allowed to be null, and says when: those the real service sends
// as null too. docs/sandbox.md's "Fields left null" table must list exactly these (a test compares).

export type SeedType = 'string' | 'boolean' | 'integer' | 'number' | 'object' | 'array' | 'date' | 'date-time';

export interface SeedField {
  name: string;
  type: SeedType;
  /** When the field is null, as the real service sends it; unset: never null. */
  nullWhen?: string;
  /** An object's own fields, checked inside it. */
  fields?: SeedField[];
}

export interface SeedTable {
  /** Seed section and what the table describes, as test and guide name it. */
  id: string;
  fields: SeedField[];
}

const f = (name: string, type: SeedType, nullWhen?: string): SeedField => ({ name, type, ...(nullWhen ? { nullWhen } : {}) });
const strings = (...names: string[]): SeedField[] => names.map((name) => f(name, 'string'));

export const boletoPaymentMethod: SeedTable = {
  id: '2.2 boleto payment method',
  fields: [
    ...strings('id', 'service_boleto_id', 'resource', 'description', 'reference_number', 'document_number'),
    f('expiration_date', 'date'),
    f('payment_limit_date', 'date'),
    ...strings('recipient', 'bank_code', 'customer', 'address', 'sequence', 'url', 'barcode', 'created_at', 'updated_at', 'status'),
  ],
};

export const historyEntry: SeedTable = {
  id: '2.4 history entry',
  fields: [
    ...strings('id', 'transaction', 'amount', 'operation_type', 'status', 'response_code', 'response_message'),
    ...strings('authorization_code', 'authorizer_id', 'authorization_nsu', 'gatewayResponseTime', 'authorizer'),
    f('created_at', 'date-time'),
  ],
};

const NO_DESCRIPTION = 'no `--description` was given';

export const boletoTransaction: SeedTable = {
  id: '2.1 boleto transaction',
  fields: [
    ...strings('id', 'resource', 'status', 'amount', 'original_amount', 'currency'),
    f('description', 'string', NO_DESCRIPTION),
    f('payment_type', 'string'),
    ...strings('transaction_number', 'gateway_authorizer'),
    f('app_transaction_uid', 'string', 'always: no app of the provider’s made the sale (null in the provider’s boleto sample)'),
    f('refunds', 'string', 'always (null in the provider’s boleto sample): a refund shows in `history`, `amount` and `refunded`'),
    f('rewards', 'string', 'always: the sandbox runs no rewards programme (null in the provider’s boleto sample)'),
    f('discounts', 'string', 'always (null in the provider’s boleto sample): a boleto’s discounts are in its `payment_method`'),
    f('pre_authorization', 'string', 'always (null in the provider’s boleto sample): only a card is pre-authorized, and `status` says so'),
    ...strings('sales_receipt', 'on_behalf_of', 'customer', 'statement_descriptor'),
    { name: 'payment_method', type: 'object', fields: boletoPaymentMethod.fields },
    f('source', 'string', 'the sale was not made from a source (`sources create`)'),
    f('installment_plan', 'string', 'a boleto has no installments'),
    f('refunded', 'boolean'),
    f('voided', 'boolean'),
    f('captured', 'boolean'),
    f('fees', 'string'),
    f('fee_details', 'object'),
    f('uri', 'string'),
    f('metadata', 'object'),
    f('expected_on', 'date-time'),
    f('created_at', 'date-time'),
    f('updated_at', 'date-time'),
    f('payment_authorization', 'string', 'always: a boleto is paid, not authorized (null in the provider’s boleto sample)'),
    { name: 'history', type: 'array', fields: historyEntry.fields },
  ],
};

export const cardPaymentMethod: SeedTable = {
  id: '2.3 card payment method',
  fields: [
    ...strings('id', 'resource', 'description', 'card_brand', 'first4_digits', 'last4_digits', 'expiration_month', 'expiration_year', 'holder_name'),
    f('is_active', 'boolean'),
    f('is_valid', 'boolean'),
    f('is_verified', 'boolean'),
    f('customer', 'string', 'the card was given by number in the sale and belongs to no buyer (`cards associate` gives it one)'),
    ...strings('fingerprint', 'uri'),
    f('metadata', 'object'),
    ...strings('created_at', 'updated_at'),
  ],
};

export const cardTransaction: SeedTable = {
  id: '2.1 card transaction',
  fields: [
    ...strings('id', 'status', 'resource', 'amount', 'original_amount', 'currency'),
    f('description', 'string', NO_DESCRIPTION),
    f('payment_type', 'string'),
    ...strings('transaction_number', 'sales_receipt', 'on_behalf_of', 'statement_descriptor'),
    { name: 'payment_method', type: 'object', fields: cardPaymentMethod.fields },
    f('refunded', 'boolean'),
    f('voided', 'boolean'),
    f('captured', 'boolean'),
    f('fees', 'string'),
    {
      name: 'fee_details',
      type: 'object',
      fields: [f('amount', 'string'), f('prepaid', 'boolean'), f('currency', 'string'), f('type', 'string'), f('description', 'string')],
    },
    f('uri', 'string'),
    f('metadata', 'object'),
    f('expected_on', 'date-time'),
    f('created_at', 'date-time'),
    f('updated_at', 'date-time'),
  ],
};

export const cardToken: SeedTable = {
  id: '2.5 card token',
  fields: [
    ...strings('id', 'resource', 'used', 'type'),
    {
      name: 'card',
      type: 'object',
      fields: [
        ...strings('id', 'resource', 'description', 'card_brand', 'first4_digits', 'expiration_month', 'expiration_year', 'holder_name'),
        f('customer', 'string', 'the token’s card belongs to no buyer until `cards associate`'),
        ...strings('fingerprint', 'uri'),
        f('is_active', 'boolean'),
        f('is_valid', 'boolean'),
        f('is_verified', 'boolean'),
        f('metadata', 'object'),
        { name: 'verification_checklist', type: 'object', fields: strings('postal_code_check', 'security_code_check', 'address_line1_check') },
        f('created_at', 'date-time'),
        f('updated_at', 'date-time'),
      ],
    },
  ],
};

export const subscription: SeedTable = {
  id: '2.6 subscription',
  fields: [
    ...strings('uuid', 'plan', 'on_behalf_of', 'customer', 'description', 'payment_method'),
    f('due_date', 'date'),
    f('due_since_date', 'date'),
    f('expiration_date', 'string', 'the subscription has no end (no `--expiration-date`)'),
    f('amount', 'number'),
    ...strings('currency', 'status', 'resource', 'created_at', 'updated_at'),
    f('suspended_at', 'date-time', 'the subscription is not suspended'),
    f('uri', 'string'),
    f('card', 'string', 'the subscription is paid by boleto (`--payment-method boleto`): no card is charged'),
  ],
};

/** Seed 4.1, direct card authorization: the body `transactions create` sends for a card given by number. */
export const directCardRequest: SeedTable = {
  id: '4.1 direct card authorization request',
  fields: [
    ...strings('description', 'payment_type', 'capture', 'reference_id'),
    {
      name: 'source',
      type: 'object',
      fields: [
        f('usage', 'string'),
        f('amount', 'integer'),
        f('currency', 'string'),
        f('type', 'string'),
        { name: 'card', type: 'object', fields: strings('card_number', 'holder_name', 'expiration_month', 'expiration_year', 'security_code') },
        { name: 'installment_plan', type: 'object', fields: [f('number_installments', 'integer')] },
      ],
    },
  ],
};

/** Seed 4.1, simple boleto. */
export const simpleBoletoRequest: SeedTable = {
  id: '4.1 simple boleto request',
  fields: strings('customer', 'amount', 'currency', 'description', 'payment_type', 'reference_id'),
};

/** Seed 4.2. */
export const cardTokenRequest: SeedTable = {
  id: '4.2 card token request',
  fields: strings('holder_name', 'expiration_month', 'expiration_year', 'card_number', 'security_code'),
};

/** Seed 4.3. */
export const subscriptionRequest: SeedTable = {
  id: '4.3 subscription request',
  fields: [
    ...strings('plan', 'customer', 'payment_method'),
    f('due_date', 'date'),
    f('expiration_date', 'date'),
    f('amount', 'number'),
    f('currency', 'string'),
    f('card', 'string'),
  ],
};

export const responseTables = [boletoTransaction, boletoPaymentMethod, cardTransaction, cardPaymentMethod, historyEntry, cardToken, subscription];

/** Every field allowed to be null, as "<table id> / <dotted path>", with when. */
export function nullableFields(tables: SeedTable[] = responseTables): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (table: SeedTable, fields: SeedField[], prefix: string) => {
    for (const field of fields) {
      const path = `${prefix}${field.name}`;
      if (field.nullWhen) found.set(`${table.id} / ${path}`, field.nullWhen);
      // Nested tables that are tables of their own (2.2 in 2.1) are listed once, under their own id.
      if (field.fields && !(tables.some((t) => t !== table && t.fields === field.fields))) walk(table, field.fields, `${path}.`);
    }
  };
  for (const table of tables) walk(table, table.fields, '');
  return found;
}
