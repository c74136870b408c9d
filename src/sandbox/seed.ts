import { SANDBOX_BUYER_ID, SANDBOX_CARD_ID, SANDBOX_MARKETPLACE_ID, SANDBOX_SELLER_ID } from '../provider/sandbox-account.js';
import { randomId } from './ids.js';
import { accountIdFor, newAccount } from './ledger.js';
import { isoTimestamp } from './time.js';
import { seedSeller } from './sellers.js';
import type { Buyer, CardRecord, StoredState, Seller } from './types.js';

export function seedState(now: Date): StoredState {
  const at = isoTimestamp(now);
  const seller: Seller = {
    id: SANDBOX_SELLER_ID,
    name: 'Loja Sandbox Ltda',
    statement_descriptor: 'LOJA SANDBOX',
    // Its CNPJ and address, printed on receipts.
    taxpayer_id: '11222333000181',
    address: {
      line1: 'Rua Vergueiro, 2000',
      line2: null,
      line3: null,
      neighborhood: 'Vila Mariana',
      city: 'São Paulo',
      state: 'SP',
      postal_code: '04102000',
      country_code: 'BR',
    },
  };
  const card: CardRecord = {
    id: SANDBOX_CARD_ID,
    brand: 'Visa',
    first4: '4111',
    first6: '411111',
    last4: '1111',
    expiration_month: '12',
    // Relative to the seeding time so the card on file never expires under a moving clock.
    expiration_year: String(now.getUTCFullYear() + 5),
    holder_name: 'MARIA SILVA',
    customer: SANDBOX_BUYER_ID,
    fingerprint: randomId(),
    declines: false,
    created_at: at,
    updated_at: at,
  };
  const buyer: Buyer = {
    id: SANDBOX_BUYER_ID,
    resource: 'buyer',
    status: 'active',
    first_name: 'Maria',
    last_name: 'Silva',
    email: 'maria.silva@example.com',
    phone_number: '+5511987654321',
    taxpayer_id: '52998224725',
    birthdate: '1990-05-17',
    description: null,
    address: {
      line1: 'Avenida Paulista, 1000',
      line2: 'Apto 101',
      line3: null,
      neighborhood: 'Bela Vista',
      city: 'São Paulo',
      state: 'SP',
      postal_code: '01310100',
      country_code: 'BR',
    },
    delinquent: false,
    default_credit: SANDBOX_CARD_ID,
    default_debit: null,
    default_receipt_delivery_method: null,
    uri: `/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/buyers/${SANDBOX_BUYER_ID}`,
    metadata: {},
    created_at: at,
    updated_at: at,
  };
  return {
    marketplace_id: SANDBOX_MARKETPLACE_ID,
    seller,
    sellers: { [seller.id]: seedSeller({ marketplace_id: SANDBOX_MARKETPLACE_ID, seller }, at) },
    buyers: { [buyer.id]: buyer },
    cards: { [card.id]: card },
    tokens: {},
    transactions: [],
    sources: {},
    receivables: [],
    deliveries: [],
    plans: {},
    subscriptions: {},
    invoices: {},
    accounts: { [accountIdFor(seller.id)]: newAccount({ marketplace_id: SANDBOX_MARKETPLACE_ID }, seller.id, 'seller', at) },
    balance_entries: [],
    transfers: [],
    payouts: { next: null },
    events: [],
    webhooks: {},
    replays: {},
    clock: { offset_seconds: 0 },
    counters: { seq: 0, boleto_sequence: 20000, transaction_number: 100000 },
  };
}
