import { DAY_MS } from './time.js';
import { Draws, STREAM, Weighted } from './volume-random.js';

// What each generated sale is and what becomes of it, drawn from the seed and the sale's number
// alone (volume-random.ts), as a Brazilian online shop sees it: two sales in three by card (a
// third of them in instalments), one in five by PIX, one in ten by boleto; amounts spread like
// prices (most tens to a few hundred reais, some thousands, ending in ,90 or ,99 as often as not);
// boletos paid a day or three later or never, PIX paid within minutes or left to expire; a few
// refunds, whole or in part, days later; and now and then a dispute days or weeks later, which the
// cardholder wins (a chargeback) or the seller does, or which is still open.

export type SaleKind = 'credit' | 'pix' | 'boleto';
const KINDS = new Weighted<SaleKind>([['credit', 68], ['pix', 21], ['boleto', 11]]);

/** Something that happens to a sale after it is made, `afterMs` after it. */
export interface FollowUp {
  afterMs: number;
  kind: 'pay' | 'refund' | 'dispute' | 'chargeback' | 'dispute_lost';
  /** A refund's share of the sale's original amount, in basis points (10000: all that is left). */
  share?: number;
}

export interface SaleFate {
  kind: SaleKind;
  /** A PIX the buyer pays, this long after it is made (clamped to before the next sale); else undefined. */
  pixPaidAfterMs?: number;
  /** In the order they happen. */
  followUps: FollowUp[];
}

/** The longest a follow-up comes after its sale: a dispute 30 days on, settled 25 days after that. */
export const LONGEST_FOLLOW_UP_MS = 55 * DAY_MS;

const HOUR_MS = 3_600_000;

/** Some whole days and a part of one, from `min` to `max` days. */
const daysLater = (draws: Draws, min: number, max: number) => draws.between(min, max - 1) * DAY_MS + Math.floor(draws.next() * DAY_MS);

function refunds(draws: Draws, fullShare: number, partShare: number, maxDays: number): FollowUp[] {
  const r = draws.next();
  if (r < fullShare) return [{ afterMs: daysLater(draws, 1, maxDays), kind: 'refund', share: 10_000 }];
  if (r < fullShare + partShare) return [{ afterMs: daysLater(draws, 1, maxDays), kind: 'refund', share: draws.between(1_000, 6_000) }];
  return [];
}

/** Sale number `n`'s kind and fate: cheap to draw, for a part of a volume to find what falls due in it. */
export function saleFate(seed: number, n: number): SaleFate {
  const draws = new Draws(seed, STREAM.fate, n);
  const kind = draws.weighted(KINDS);
  if (kind === 'boleto') {
    // Paid from a couple of hours to three days later, or never (the boleto expires).
    return { kind, followUps: draws.next() < 0.78 ? [{ afterMs: draws.between(2 * HOUR_MS, 3 * DAY_MS), kind: 'pay' }] : [] };
  }
  if (kind === 'pix') {
    if (draws.next() >= 0.94) return { kind, followUps: [] };
    return { kind, pixPaidAfterMs: draws.between(10_000, 180_000), followUps: refunds(draws, 0.02, 0.01, 10) };
  }
  const followUps = refunds(draws, 0.035, 0.025, 20);
  if (followUps.length === 0 && draws.next() < 0.02) {
    const opened = daysLater(draws, 3, 30);
    const outcome = draws.next();
    followUps.push({ afterMs: opened, kind: 'dispute' });
    if (outcome < 0.55) followUps.push({ afterMs: opened + daysLater(draws, 7, 25), kind: 'chargeback' });
    else if (outcome < 0.85) followUps.push({ afterMs: opened + daysLater(draws, 7, 25), kind: 'dispute_lost' });
  }
  return { kind, followUps };
}

/** What generated sales sell; the sandbox's database keeps a sale's description as its place here (db/schema.ts). */
export const PRODUCTS = [
  'Camiseta básica', 'Calça jeans', 'Tênis de corrida', 'Vestido floral', 'Mochila escolar', 'Fone de ouvido Bluetooth', 'Carregador turbo',
  'Capinha de celular', 'Smartwatch', 'Caixa de som portátil', 'Cafeteira elétrica', 'Liquidificador', 'Jogo de panelas', 'Jogo de lençol',
  'Travesseiro', 'Luminária de mesa', 'Kit de maquiagem', 'Perfume 100 ml', 'Protetor solar', 'Livro', 'Box de livros', 'Brinquedo educativo',
  'Bicicleta aro 29', 'Cadeira de escritório', 'Monitor 24"', 'Teclado sem fio', 'Mouse gamer', 'Notebook', 'Smartphone', 'Ração 15 kg',
  'Cesta de café da manhã', 'Assinatura anual', 'Curso online', 'Ingresso de show', 'Passagem de ônibus', 'Kit churrasco',
];

/** The median amount of a sale of each kind, in cents: boletos buy bigger things, PIX smaller. */
const MEDIAN_CENTS: Record<SaleKind, number> = { credit: 12_000, pix: 6_000, boleto: 25_000 };

/** How prices end: ,90, ,99, a round real, or any centavos. */
const ENDINGS = new Weighted<number | undefined>([[90, 40], [99, 20], [0, 20], [undefined, 20]]);

/**
 * A price: log-normally spread around the kind's median, from R$ 5,00 to R$ 15.000,00, ending in
 * ,90 or ,99 or a round real as shop prices do, or in any centavos (a cart with shipping).
 */
function priceCents(draws: Draws, kind: SaleKind): number {
  const raw = Math.round(MEDIAN_CENTS[kind] * Math.exp(0.9 * draws.normal()));
  const reais = Math.min(15_000, Math.max(5, Math.floor(raw / 100)));
  const ending = draws.weighted(ENDINGS);
  return reais * 100 + (ending ?? raw % 100);
}

const INSTALMENTS = new Weighted([[1, 50], [2, 12], [3, 14], [4, 5], [5, 5], [6, 8], [8, 1], [10, 4], [12, 1]] as const);

/** Instalments a card sale is split into: none under R$ 100, otherwise often, at least R$ 20 each. */
function installments(draws: Draws, cents: number): number {
  if (cents < 10_000) return 1;
  const wanted = draws.weighted(INSTALMENTS);
  return Math.max(1, Math.min(wanted, Math.floor(cents / 2_000)));
}

export interface SaleDetails {
  /** The buyer's number in the volume's pool (volume-buyers.ts). */
  buyer: number;
  /** Which of the buyer's cards pays a card sale. */
  card: number;
  cents: number;
  installments: number;
  description: string;
}

/**
 * What sale number `n` (of `kind`, from its fate) sells, for how much and to whom, from a pool of
 * `buyers`: a buyer drawn with the first of the pool more likely (the top tenth of buyers make a
 * third of the sales), most paying with their first card.
 */
export function saleDetails(seed: number, n: number, kind: SaleKind, buyers: number): SaleDetails {
  const draws = new Draws(seed, STREAM.sale, n);
  const buyer = Math.min(buyers - 1, Math.floor(buyers * draws.next() ** 2));
  const card = draws.next() < 0.8 ? 0 : 1;
  const cents = priceCents(draws, kind);
  return { buyer, card, cents, installments: kind === 'credit' ? installments(draws, cents) : 1, description: draws.pick(PRODUCTS) };
}
