import { findAllBy, findBy, page } from './db/queries.js';
import { counted } from '../platform/plural.js';
import { normalizeTaxpayerId } from '../validate/taxpayer.js';
import { addressPatchOf, emptyAddress, parseTaxpayerId, patchedAddress, registerBuyer, textsOf } from './buyers.js';
import { found, invalidParameters, SandboxError } from './errors.js';
import type { Change, Creation } from './route.js';
import { pageEnvelope, parseListQuery, type ListEnvelope } from './list.js';
import { isoTimestamp } from './time.js';
import type { Address, Buyer, CardRecord, Deleted, Invoice, SandboxState, StoredTransaction } from './types.js';
import type { RequestBody } from '../provider/schemas/requests.js';
import { mergeMetadata } from './validate.js';

// The buyers API: create, list, get, search by document, update and remove. As with
// transactions, bodies are checked before the state is locked; what depends on the state
// (duplicates, dependents, unknown ids) is checked under the lock before anything changes.

type BuyerBody = RequestBody<'buyers.update'>;

/** What a create or update sets; null clears a field, a missing key leaves it alone. */
type BuyerPatch = Partial<Pick<Buyer, 'first_name' | 'last_name' | 'email' | 'taxpayer_id' | 'phone_number' | 'birthdate' | 'description'>> & {
  address?: Partial<Address> | null;
  metadata?: Record<string, string | null>;
};

/** The body has met the request schema, and holds only a buyer's fields (request-schemas.ts): its values as kept. */
function patchOf(body: BuyerBody): BuyerPatch {
  const { first_name: first, taxpayer_id: taxpayerId, address, metadata } = body;
  const patch: BuyerPatch = textsOf(body, ['last_name', 'phone_number', 'description', 'email', 'birthdate']);
  if (first !== undefined) patch.first_name = first.trim();
  if (taxpayerId !== undefined) patch.taxpayer_id = normalizeTaxpayerId(taxpayerId);
  if (address !== undefined) patch.address = addressPatchOf(address);
  if (metadata) patch.metadata = metadata;
  return patch;
}

function applyPatch(buyer: Buyer, patch: BuyerPatch): void {
  const { address, metadata, ...fields } = patch;
  Object.assign(buyer, fields);
  // Cleared, it is still sent, its lines null.
  buyer.address = patchedAddress(buyer.address, address) ?? emptyAddress();
  mergeMetadata(buyer.metadata, metadata);
}

/** The provider keeps one buyer per CPF/CNPJ. */
function requireUniqueDocument(state: SandboxState, taxpayerId: string, self?: string): void {
  const other = findAllBy<Buyer>(state, 'buyers', { taxpayer_id: taxpayerId }).find((b) => b.id !== self);
  if (other) {
    throw new SandboxError(409, 'duplicate_taxpayer_id', `A buyer with this taxpayer_id already exists (id: ${other.id}).`, {
      reasons: [`taxpayer_id: already registered to buyer ${other.id}`],
    });
  }
}

export function findBuyer(state: SandboxState, id: string): Buyer {
  return found(state.buyers.get(id), 'buyer', id);
}

/** The buyer a record names as its `customer`: a 404 says "customer", as the provider's does. */
export function findCustomer(state: SandboxState, id: string): Buyer {
  return found(state.buyers.get(id), 'customer', id);
}

export function planCreateBuyer(body: RequestBody<'buyers.create'>): Creation<Buyer> {
  const patch = patchOf(body);
  const { first_name: firstName, taxpayer_id: taxpayerId } = patch as Required<Pick<BuyerPatch, 'first_name' | 'taxpayer_id'>>;

  return (state, now) => {
    requireUniqueDocument(state, taxpayerId);
    const buyer = registerBuyer(
      state,
      {
        first_name: firstName,
        last_name: null,
        email: null,
        taxpayer_id: taxpayerId,
        phone_number: null,
        birthdate: null,
        description: null,
        address: null,
        metadata: {},
      },
      now,
    );
    applyPatch(buyer, patch);
    return buyer;
  };
}

export function planUpdateBuyer(body: BuyerBody): Change<Buyer> {
  const patch = patchOf(body);

  return (buyer, state, now) => {
    // Only a change of document can collide: re-sending its own keeps it valid.
    if (patch.taxpayer_id && patch.taxpayer_id !== buyer.taxpayer_id) requireUniqueDocument(state, patch.taxpayer_id, buyer.id);
    applyPatch(buyer, patch);
    buyer.updated_at = isoTimestamp(now);
  };
}

export function listBuyers(state: SandboxState, params: URLSearchParams, uri: string): ListEnvelope<Buyer> {
  const query = parseListQuery(params, ['taxpayer_id']);
  const wanted = query.filters.get('taxpayer_id');
  const documents = wanted && [...new Set([...wanted].map(normalizeTaxpayerId))];
  const found = page<Buyer>(state, 'buyers', { time: 'created_ms', filters: { taxpayer_id: documents } }, query);
  return pageEnvelope(uri, found.items, found.total, query);
}

/** Checked before the lock: the one query parameter the search needs. */
export function parseSearch(params: URLSearchParams): string {
  const raw = params.get('taxpayer_id');
  if (raw === null || raw.trim() === '') {
    throw invalidParameters([{ field: 'taxpayer_id', message: 'is required (the CPF or CNPJ to look for)' }]);
  }
  const digits = parseTaxpayerId(raw.trim());
  if (!digits) throw invalidParameters([{ field: 'taxpayer_id', message: 'must be a valid CPF or CNPJ' }]);
  return digits;
}

/**
 * The buyer of a CPF or CNPJ (its characters, as kept). Buyers the API creates are unique per
 * document; inline boleto payers are registered as they come, so when several share it the
 * oldest, the one the document was first registered to, is the one.
 */
export function buyerOfDocument(state: SandboxState, taxpayerId: string): Buyer | undefined {
  return findBy<Buyer>(state, 'buyers', 'taxpayer_id', taxpayerId, 'created_ms');
}

export function searchBuyer(state: SandboxState, taxpayerId: string): Buyer {
  const buyer = buyerOfDocument(state, taxpayerId);
  if (!buyer) {
    throw new SandboxError(404, 'resource_not_found', `Sorry, the buyer (taxpayer_id: ${taxpayerId}) you are trying to use does not exist or has been deleted.`);
  }
  return buyer;
}

/**
 * Refused while anything still points at the buyer and could be charged to it: its cards on file,
 * boletos it may still pay, subscriptions that may still bill it and invoices it still owes. Paid
 * and canceled transactions keep the buyer's id as history.
 */
export function removeBuyer(state: SandboxState, id: string): Deleted {
  findBuyer(state, id);
  const cards = findAllBy<CardRecord>(state, 'cards', { customer: id });
  const boletos = findAllBy<StoredTransaction>(state, 'transactions', { customer: id, status: 'pending' }).filter(
    (s) => s.txn.payment_type === 'boleto' || s.txn.payment_type === 'bolepix',
  );
  const subscriptions = state.subscriptions.all()
    .map((s) => s.sub)
    .filter((sub) => sub.customer === id && (sub.status === 'active' || sub.status === 'suspended'));
  const invoices = findAllBy<Invoice>(state, 'invoices', { customer: id }).filter((i) => i.status === 'pending' || i.status === 'over-due');
  // Each kind of dependent: how the message counts it, what a reason calls one, and their ids.
  const dependents = [
    { counted: (n: number) => `${counted(n, 'card')} on file`, one: 'card', ids: cards.map((c) => c.id) },
    { counted: (n: number) => counted(n, 'pending boleto/bolepix transaction'), one: 'transaction', ids: boletos.map((s) => s.txn.id) },
    { counted: (n: number) => counted(n, 'running subscription'), one: 'subscription', ids: subscriptions.map((s) => s.uuid) },
    { counted: (n: number) => counted(n, 'unpaid invoice'), one: 'invoice', ids: invoices.map((i) => i.id) },
  ].filter((kind) => kind.ids.length > 0);
  if (dependents.length > 0) {
    const blockers = dependents.map((kind) => `${kind.counted(kind.ids.length)} (${kind.ids.join(', ')})`);
    throw new SandboxError(
      409,
      'buyer_has_dependents',
      `The buyer (id: ${id}) cannot be removed: it still has ${blockers.join(' and ')}. Remove its cards, cancel or settle its boletos and invoices, and cancel its subscriptions first.`,
      { reasons: dependents.flatMap((kind) => kind.ids.map((dependent) => `${kind.one} ${dependent}`)) },
    );
  }
  state.buyers.remove(id);
  return { id, resource: 'buyer', deleted: true };
}
