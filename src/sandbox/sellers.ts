import { sumBy } from './db/queries.js';
import { normalizeTaxpayerId } from '../validate/taxpayer.js';
import { addressPatchOf, emptyAddress, patchedAddress, textsOf } from './buyers.js';
import { found, invalidParameters, SandboxError } from './errors.js';
import type { Change, Creation } from './route.js';
import { newId } from './ids.js';
import { accountIdFor, accountOf, newAccount } from './ledger.js';
import { listFiltered, type ListEnvelope } from './list.js';
import { isoTimestamp } from './time.js';
import type { Address, Deleted, SandboxState, Seller, SellerOwner, SellerRecord } from './types.js';
import type { RequestBody } from '../provider/schemas/requests.js';
import { mergeMetadata } from './validate.js';

// The sellers API: the marketplace's sellers, people (`individual`, with a CPF) and companies
// (`business`, with a CNPJ, the alphanumeric one included). Each has a balance account of its own
// from the start; sales made on its behalf (on_behalf_of) credit it, and the seller-scoped lists
// (…/sellers/{id}/transactions, …) show only its records. The seeded seller is one of them: a
// company, kept in `state.seller` too for what receipts and boletos print.

export type SellerKind = SellerRecord['type'];

type Patch = Partial<Omit<SellerRecord, 'address' | 'business_address' | 'metadata' | 'owner'>> & {
  owner?: Partial<SellerOwner> | null;
  address?: Partial<Address> | null;
  business_address?: Partial<Address> | null;
  metadata?: Record<string, string | null>;
};

/** Either kind's body, as the request schemas type them. */
type SellerBody = Partial<RequestBody<'sellers.updateIndividual'> & RequestBody<'sellers.updateBusiness'>>;

/** An owner must have a name and a CPF, whether given at once or put together by updates. */
function requireWholeOwner(owner: Partial<SellerOwner> | null | undefined): void {
  if (!owner) return;
  const missing = (['first_name', 'taxpayer_id'] as const).filter((field) => !owner[field]);
  if (missing.length > 0) throw invalidParameters(missing.map((field) => ({ field: `owner.${field}`, message: 'is required' })));
}

/** The body has met the request schema, and holds only the kind's fields (request-schemas.ts): its values as kept. */
function patchOf(body: SellerBody): Patch {
  const { taxpayer_id: taxpayerId, ein, address, business_address: businessAddress, owner, metadata } = body;
  const patch: Patch = textsOf(body, [
    'first_name', 'last_name', 'phone_number', 'business_name', 'business_phone', 'statement_descriptor',
    'description', 'email', 'business_email', 'birthdate', 'business_opening_date',
  ]);
  if (taxpayerId !== undefined) patch.taxpayer_id = normalizeTaxpayerId(taxpayerId);
  if (ein !== undefined) patch.ein = normalizeTaxpayerId(ein);
  if (address !== undefined) patch.address = addressPatchOf(address);
  if (businessAddress !== undefined) patch.business_address = addressPatchOf(businessAddress);
  if (owner !== undefined) {
    const given = textsOf(owner, ['first_name', 'last_name', 'email']) as Partial<SellerOwner>;
    if (owner.taxpayer_id !== undefined) given.taxpayer_id = normalizeTaxpayerId(owner.taxpayer_id);
    patch.owner = given;
  }
  if (metadata) patch.metadata = metadata;
  return patch;
}

function applyPatch(seller: SellerRecord, patch: Patch): void {
  const { address, business_address: businessAddress, metadata, owner, ...fields } = patch;
  Object.assign(seller, fields);
  if (owner === null) seller.owner = null;
  else if (owner) seller.owner = { first_name: '', last_name: null, taxpayer_id: '', email: null, ...seller.owner, ...owner };
  seller.address = patchedAddress(seller.address, address);
  seller.business_address = patchedAddress(seller.business_address, businessAddress);
  mergeMetadata(seller.metadata, metadata);
}

function blankSeller(state: Pick<SandboxState, 'marketplace_id'>, id: string, type: SellerKind, at: string): SellerRecord {
  return {
    id,
    resource: 'seller',
    type,
    status: 'active',
    first_name: null,
    last_name: null,
    email: null,
    phone_number: null,
    taxpayer_id: null,
    birthdate: null,
    address: null,
    business_name: null,
    business_email: null,
    business_phone: null,
    ein: null,
    business_opening_date: null,
    business_address: null,
    owner: null,
    statement_descriptor: null,
    description: null,
    uri: `/v1/marketplaces/${state.marketplace_id}/sellers/${id}`,
    metadata: {},
    created_at: at,
    updated_at: at,
  };
}

/** A company's CNPJ (its ein), a person's CPF. */
function documentOf(type: SellerKind, fields: Pick<Patch, 'ein' | 'taxpayer_id'>): string | null | undefined {
  return type === 'business' ? fields.ein : fields.taxpayer_id;
}

/** The seeded seller's record, made for a new sandbox (seed.ts): the company `state.seller` names. */
export function seedSeller(state: Pick<SandboxState, 'marketplace_id' | 'seller'>, at: string): SellerRecord {
  const { seller } = state;
  return {
    ...blankSeller(state, seller.id, 'business', at),
    business_name: seller.name,
    business_email: 'financeiro@lojasandbox.example.com',
    ein: seller.taxpayer_id,
    business_address: { ...seller.address },
    statement_descriptor: seller.statement_descriptor,
  };
}

/** A seller a sale, source, subscription or invoice may be made on behalf of: 404 for an unknown id, as the provider answers. */
export function requireSeller(state: SandboxState, id: string): SellerRecord {
  return found(state.sellers.get(id), 'seller', id);
}

/**
 * What a sale's documents (receipt, boleto, PIX code, card statement) print of its seller: the
 * seeded seller's own record, or another seller's name, CPF/CNPJ and address. A seller removed
 * since is printed as the marketplace's seller.
 */
export function sellerOnDocuments(state: SandboxState, id: string): Seller {
  const seller = id === state.seller.id ? undefined : state.sellers.get(id);
  if (!seller) return state.seller;
  const name = sellerName(seller);
  return {
    id,
    name,
    // Card statements print plain ASCII.
    statement_descriptor: seller.statement_descriptor ?? name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toUpperCase().slice(0, 22).trim(),
    taxpayer_id: documentOf(seller.type, seller) ?? '',
    address: { ...emptyAddress(), ...(seller.type === 'business' ? seller.business_address : seller.address) },
  };
}

/** The name a seller goes by on a boleto, a PIX code or a statement. */
export function sellerName(seller: SellerRecord): string {
  return seller.business_name ?? [seller.first_name, seller.last_name].filter(Boolean).join(' ');
}

/** The provider keeps one seller per CPF/CNPJ. */
function requireUniqueDocument(state: SandboxState, document: string, self?: string): void {
  const other = state.sellers.all().find((s) => s.id !== self && documentOf(s.type, s) === document);
  if (other) {
    const field = document.length === 14 ? 'ein' : 'taxpayer_id';
    throw new SandboxError(409, 'duplicate_taxpayer_id', `A seller with this ${field} already exists (id: ${other.id}).`, {
      reasons: [`${field}: already registered to seller ${other.id}`],
    });
  }
}

export function planCreateSeller(kind: SellerKind, body: SellerBody): Creation<SellerRecord> {
  const patch = patchOf(body);
  requireWholeOwner(patch.owner);
  return (state, now) => {
    requireUniqueDocument(state, documentOf(kind, patch) as string);
    const at = isoTimestamp(now);
    const seller = blankSeller(state, newId(state), kind, at);
    applyPatch(seller, patch);
    state.sellers.put(seller.id, seller);
    // Its balance account exists from the start, at zero, so `balances get --seller` answers at once.
    state.accounts.put(accountIdFor(seller.id), newAccount(state, seller.id, 'seller', at));
    return seller;
  };
}

export function planUpdateSeller(kind: SellerKind, body: SellerBody): Change<SellerRecord> {
  const patch = patchOf(body);
  return (seller, state, now) => {
    const { id } = seller;
    if (seller.type !== kind) {
      const segment = seller.type === 'business' ? 'businesses' : 'individuals';
      throw invalidParameters([{ field: 'type', message: `seller ${id} is ${seller.type === 'business' ? 'a business' : 'an individual'}: update it at …/sellers/${segment}/${id}` }]);
    }
    const document = documentOf(kind, patch);
    if (document && document !== documentOf(kind, seller)) requireUniqueDocument(state, document, id);
    applyPatch(seller, patch);
    requireWholeOwner(seller.owner);
    seller.updated_at = isoTimestamp(now);
    if (id === state.seller.id) {
      // What receipts and boletos print follows the seeded seller's record.
      state.seller.name = sellerName(seller);
      state.seller.statement_descriptor = seller.statement_descriptor ?? state.seller.statement_descriptor;
      state.seller.taxpayer_id = seller.ein ?? state.seller.taxpayer_id;
      if (seller.business_address) state.seller.address = { ...seller.business_address };
    }
  };
}

export function listSellers(state: SandboxState, params: URLSearchParams, uri: string): ListEnvelope<SellerRecord> {
  return listFiltered(uri, state.sellers.all(), params, ['type'], { type: ['business', 'individual'] });
}

/**
 * Refused for the marketplace's own (seeded) seller, and while money is still the seller's: a
 * balance that is not zero, receivables not yet paid out, subscriptions that may still bill.
 */
export function removeSeller(state: SandboxState, id: string): Deleted {
  requireSeller(state, id);
  if (id === state.seller.id) {
    throw new SandboxError(409, 'seller_is_marketplace', `The seller (id: ${id}) is the marketplace's own seller and cannot be removed.`);
  }
  const balance = accountOf(state, id)?.current_balance ?? '0.00';
  const pending = sumBy(state, 'receivables', 'cents', { status: 'pending', recipient: id });
  const running = state.subscriptions.all().filter((s) => s.sub.on_behalf_of === id && (s.sub.status === 'active' || s.sub.status === 'suspended'));
  const invoices = state.invoices.all().filter((i) => i.on_behalf_of === id && (i.status === 'pending' || i.status === 'over-due'));
  const blockers = [
    ...(Number(balance) !== 0 ? [`a balance of ${balance}`] : []),
    ...(pending !== 0 ? ['receivables not yet paid out'] : []),
    ...running.map((s) => `subscription ${s.sub.uuid}`),
    ...invoices.map((i) => `invoice ${i.id}`),
  ];
  if (blockers.length > 0) {
    throw new SandboxError(409, 'seller_has_dependents', `The seller (id: ${id}) cannot be removed: it still has ${blockers.join(', ')}.`, { reasons: blockers });
  }
  state.sellers.remove(id);
  state.accounts.remove(accountIdFor(id));
  return { id, resource: 'seller', deleted: true };
}
