import type { BuyerInput } from './buyers.js';
import { brandOf, type AcceptedCard } from './cards.js';
import { Draws, STREAM, Weighted } from './volume-random.js';

// The buyers a generated volume sells to, as a real shop's customers look: Brazilian names, a CPF
// with valid check digits (its ninth digit the fiscal region of their state, as the Receita issues
// them), an e-mail made from the name, a mobile number with their city's area code, an address,
// and the cards they keep on file, of the brands Brazilians carry. Buyer number n of a seed is
// always the same person; e-mails are at example.com/.net/.org, which reach no one.

const WOMEN = [
  'Maria', 'Ana', 'Francisca', 'Antônia', 'Adriana', 'Juliana', 'Márcia', 'Fernanda', 'Patrícia', 'Aline', 'Sandra', 'Camila', 'Amanda',
  'Bruna', 'Jéssica', 'Letícia', 'Júlia', 'Luciana', 'Vanessa', 'Mariana', 'Gabriela', 'Beatriz', 'Larissa', 'Rafaela', 'Carolina',
  'Daniela', 'Renata', 'Simone', 'Cristiane', 'Débora', 'Tatiane', 'Natália', 'Priscila', 'Bianca', 'Isabela', 'Laura', 'Sofia',
  'Helena', 'Valentina', 'Manuela', 'Alice', 'Lorena', 'Joana', 'Raquel', 'Vitória', 'Yasmin', 'Thaís', 'Elaine', 'Roberta', 'Sabrina',
];
const MEN = [
  'José', 'João', 'Antônio', 'Francisco', 'Carlos', 'Paulo', 'Pedro', 'Lucas', 'Luiz', 'Marcos', 'Gabriel', 'Rafael', 'Daniel',
  'Marcelo', 'Bruno', 'Eduardo', 'Felipe', 'Raimundo', 'Rodrigo', 'Manoel', 'Mateus', 'André', 'Fernando', 'Fábio', 'Leonardo',
  'Gustavo', 'Guilherme', 'Leandro', 'Tiago', 'Anderson', 'Ricardo', 'Márcio', 'Jorge', 'Sebastião', 'Alexandre', 'Roberto', 'Diego',
  'Vinícius', 'Thiago', 'Miguel', 'Arthur', 'Heitor', 'Davi', 'Bernardo', 'Samuel', 'Enzo', 'Otávio', 'Caio', 'Igor', 'Renato',
];
const SURNAMES = [
  'Silva', 'Santos', 'Oliveira', 'Souza', 'Rodrigues', 'Ferreira', 'Alves', 'Pereira', 'Lima', 'Gomes', 'Costa', 'Ribeiro', 'Martins',
  'Carvalho', 'Almeida', 'Lopes', 'Soares', 'Fernandes', 'Vieira', 'Barbosa', 'Rocha', 'Dias', 'Nascimento', 'Andrade', 'Moreira',
  'Nunes', 'Marques', 'Machado', 'Mendes', 'Freitas', 'Cardoso', 'Ramos', 'Gonçalves', 'Santana', 'Teixeira', 'Araújo', 'Azevedo',
  'Batista', 'Campos', 'Castro', 'Correia', 'Cunha', 'Duarte', 'Farias', 'Monteiro', 'Moura', 'Pinto', 'Reis', 'Sales', 'Tavares',
  'Xavier', 'Cavalcanti', 'Macedo', 'Brito', 'Fonseca', 'Miranda', 'Peixoto', 'Siqueira', 'Borges', 'Prado',
];
const STREETS = [
  'Rua das Flores', 'Rua São José', 'Avenida Brasil', 'Rua Sete de Setembro', 'Rua XV de Novembro', 'Rua Tiradentes', 'Avenida Getúlio Vargas',
  'Rua Santos Dumont', 'Rua Dom Pedro II', 'Rua Marechal Deodoro', 'Avenida Independência', 'Rua Rui Barbosa', 'Rua da Paz', 'Rua Castro Alves',
  'Avenida Presidente Vargas', 'Rua Duque de Caxias', 'Rua Bela Vista', 'Rua Boa Esperança', 'Rua das Palmeiras', 'Avenida Atlântica',
];

interface City {
  name: string;
  state: string;
  /** The area code of its phones. */
  ddd: string;
  /** Its postal codes' first five digits, from and to. */
  cep: readonly [number, number];
  neighborhoods: readonly string[];
  /** How many buyers of a hundred live there, roughly. */
  weight: number;
}

const CITIES: readonly City[] = [
  { name: 'São Paulo', state: 'SP', ddd: '11', cep: [1000, 5999], neighborhoods: ['Pinheiros', 'Moema', 'Tatuapé', 'Santana', 'Vila Mariana'], weight: 22 },
  { name: 'Campinas', state: 'SP', ddd: '19', cep: [13000, 13139], neighborhoods: ['Cambuí', 'Barão Geraldo', 'Taquaral'], weight: 4 },
  { name: 'Santos', state: 'SP', ddd: '13', cep: [11000, 11099], neighborhoods: ['Gonzaga', 'Boqueirão', 'Ponta da Praia'], weight: 2 },
  { name: 'Rio de Janeiro', state: 'RJ', ddd: '21', cep: [20000, 23799], neighborhoods: ['Copacabana', 'Tijuca', 'Botafogo', 'Méier'], weight: 12 },
  { name: 'Niterói', state: 'RJ', ddd: '21', cep: [24000, 24399], neighborhoods: ['Icaraí', 'Santa Rosa', 'Fonseca'], weight: 2 },
  { name: 'Belo Horizonte', state: 'MG', ddd: '31', cep: [30000, 31999], neighborhoods: ['Savassi', 'Pampulha', 'Funcionários'], weight: 7 },
  { name: 'Porto Alegre', state: 'RS', ddd: '51', cep: [90000, 91999], neighborhoods: ['Moinhos de Vento', 'Menino Deus', 'Cidade Baixa'], weight: 5 },
  { name: 'Curitiba', state: 'PR', ddd: '41', cep: [80000, 82999], neighborhoods: ['Batel', 'Água Verde', 'Portão'], weight: 5 },
  { name: 'Florianópolis', state: 'SC', ddd: '48', cep: [88000, 88099], neighborhoods: ['Trindade', 'Centro', 'Ingleses'], weight: 3 },
  { name: 'Salvador', state: 'BA', ddd: '71', cep: [40000, 42599], neighborhoods: ['Barra', 'Pituba', 'Rio Vermelho'], weight: 6 },
  { name: 'Recife', state: 'PE', ddd: '81', cep: [50000, 52999], neighborhoods: ['Boa Viagem', 'Casa Forte', 'Espinheiro'], weight: 5 },
  { name: 'Fortaleza', state: 'CE', ddd: '85', cep: [60000, 61599], neighborhoods: ['Aldeota', 'Meireles', 'Messejana'], weight: 5 },
  { name: 'Brasília', state: 'DF', ddd: '61', cep: [70000, 72799], neighborhoods: ['Asa Sul', 'Asa Norte', 'Águas Claras'], weight: 5 },
  { name: 'Goiânia', state: 'GO', ddd: '62', cep: [74000, 74899], neighborhoods: ['Setor Bueno', 'Setor Marista', 'Jardim Goiás'], weight: 3 },
  { name: 'Manaus', state: 'AM', ddd: '92', cep: [69000, 69099], neighborhoods: ['Adrianópolis', 'Ponta Negra', 'Centro'], weight: 3 },
  { name: 'Belém', state: 'PA', ddd: '91', cep: [66000, 66999], neighborhoods: ['Nazaré', 'Umarizal', 'Marco'], weight: 3 },
  { name: 'Vitória', state: 'ES', ddd: '27', cep: [29000, 29099], neighborhoods: ['Praia do Canto', 'Jardim Camburi', 'Jardim da Penha'], weight: 2 },
  { name: 'Natal', state: 'RN', ddd: '84', cep: [59000, 59099], neighborhoods: ['Ponta Negra', 'Tirol', 'Lagoa Nova'], weight: 2 },
  { name: 'São Luís', state: 'MA', ddd: '98', cep: [65000, 65099], neighborhoods: ['Renascença', 'Calhau', 'Cohama'], weight: 2 },
  { name: 'Campo Grande', state: 'MS', ddd: '67', cep: [79000, 79129], neighborhoods: ['Centro', 'Jardim dos Estados', 'Tiradentes'], weight: 1 },
];
const CITY_WEIGHTS = new Weighted(CITIES.map((city) => [city, city.weight] as const));

/** The ninth digit of a CPF: the fiscal region of the state it was issued in. */
const FISCAL_REGION: Record<string, string> = {
  DF: '1', GO: '1', MS: '1', MT: '1', TO: '1', AC: '2', AM: '2', AP: '2', PA: '2', RO: '2', RR: '2', CE: '3', MA: '3', PI: '3',
  AL: '4', PB: '4', PE: '4', RN: '4', BA: '5', SE: '5', MG: '6', ES: '7', RJ: '7', SP: '8', PR: '9', SC: '9', RS: '0',
};

/** Bank identification numbers of each brand the sandbox tells apart, and how many cards in a hundred are of it. */
const CARD_BRANDS = new Weighted<{ bins: readonly string[]; length: number }>([
  [{ bins: ['453211', '476173', '491623', '402400', '448421'], length: 16 }, 36],
  [{ bins: ['522688', '548110', '536380', '515894', '546479'], length: 16 }, 34],
  [{ bins: ['636368', '504175', '650487', '509048', '506727'], length: 16 }, 15],
  [{ bins: ['606282', '384100'], length: 16 }, 7],
  [{ bins: ['376411', '341234', '371449'], length: 15 }, 8],
]);

const EMAIL_DOMAINS = ['example.com', 'example.net', 'example.org'];

/** Each name without its accents, as a card is embossed and an e-mail written: "João" → "Joao". */
const PLAIN = new Map([...WOMEN, ...MEN, ...SURNAMES].map((name) => [name, name.normalize('NFD').replace(/\p{M}/gu, '')]));
const plain = (name: string) => PLAIN.get(name) as string;

/** The check digit of a CPF's first `digits` (the Receita's modulo 11, weights from 2 up). */
function cpfCheckDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) sum += Number(digits[i]) * (digits.length + 1 - i);
  const rest = sum % 11;
  return String(rest < 2 ? 0 : 11 - rest);
}

function cpf(draws: Draws, state: string): string {
  let base = `${draws.digits(8)}${FISCAL_REGION[state] ?? '8'}`;
  // A number of one repeated digit is never issued.
  while (/^(\d)\1*$/.test(base)) base = `${draws.digits(8)}${FISCAL_REGION[state] ?? '8'}`;
  const first = cpfCheckDigit(base);
  return `${base}${first}${cpfCheckDigit(base + first)}`;
}

/** The Luhn check digit that completes `digits` into a card number. */
function luhnDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

/**
 * A card as a buyer keeps it on file: brand, BIN and last four of a number that passes the Luhn
 * check (the number itself is never kept, as for any card), the holder as embossed, an expiry two
 * to seven years after `now`. Two cards in a hundred are declined by their issuer.
 */
function card(draws: Draws, holder: string, now: Date): AcceptedCard {
  const { bins, length } = draws.weighted(CARD_BRANDS);
  const bin = draws.pick(bins);
  const body = `${bin}${draws.digits(length - bin.length - 1)}`;
  const pan = `${body}${luhnDigit(body)}`;
  return {
    brand: brandOf(pan),
    first4: pan.slice(0, 4),
    first6: pan.slice(0, 6),
    last4: pan.slice(-4),
    holder_name: holder,
    expiration_month: String(draws.between(1, 12)),
    expiration_year: String(now.getUTCFullYear() + draws.between(2, 7)),
    declines: draws.next() < 0.02,
  };
}

/**
 * The cards buyer number `n` of a seed pays with, in the order they would put them on file (one,
 * or for one buyer in five two), embossed with `holder`; `now` dates their expiry. Drawn apart
 * from the rest of the buyer, so that the cards of one already registered are told by their BIN
 * and last four alone.
 */
export function buyerCards(seed: number, n: number, holder: string, now: Date): AcceptedCard[] {
  const draws = new Draws(seed, STREAM.cards, n);
  const cards = [card(draws, holder, now)];
  if (draws.next() < 0.2) cards.push(card(draws, holder, now));
  return cards;
}

/** Where buyer number `n` of a seed lives, and their CPF (whose ninth digit says the state): what a buyer is looked up by. */
function home(seed: number, n: number): { city: City; taxpayerId: string } {
  const draws = new Draws(seed, STREAM.document, n);
  const city = draws.weighted(CITY_WEIGHTS);
  return { city, taxpayerId: cpf(draws, city.state) };
}

/** Buyer number `n`'s CPF, drawn without the rest of them. */
export function buyerDocument(seed: number, n: number): string {
  return home(seed, n).taxpayerId;
}

export interface PracticeBuyer {
  input: BuyerInput;
  /** The cards they pay with (buyerCards). */
  cards: AcceptedCard[];
}

/** Buyer number `n` of a seed; `now` dates their cards' expiry. */
export function practiceBuyer(seed: number, n: number, now: Date): PracticeBuyer {
  const draws = new Draws(seed, STREAM.buyer, n);
  const first = draws.pick(draws.next() < 0.5 ? WOMEN : MEN);
  const surnames = draws.next() < 0.55 ? [draws.pick(SURNAMES), draws.pick(SURNAMES)] : [draws.pick(SURNAMES)];
  if (surnames[0] === surnames[1]) surnames.pop();
  const last = surnames.join(' ');
  const family = surnames[surnames.length - 1] as string;
  const { city, taxpayerId } = home(seed, n);
  const [given, surname] = [plain(first).toLowerCase(), plain(family).toLowerCase()];
  const local = draws.pick([`${given}.${surname}`, `${given}${surname}`, `${given}_${surname}`, `${given.charAt(0)}${surname}`]);
  const year = draws.between(1955, 2006);
  const cep = String(draws.between(...city.cep)).padStart(5, '0') + draws.digits(3);
  const input: BuyerInput = {
    first_name: first,
    last_name: last,
    email: `${local}${n + 1}@${draws.pick(EMAIL_DOMAINS)}`,
    taxpayer_id: taxpayerId,
    phone_number: `+55${city.ddd}9${draws.between(6, 9)}${draws.digits(7)}`,
    birthdate: `${year}-${String(draws.between(1, 12)).padStart(2, '0')}-${String(draws.between(1, 28)).padStart(2, '0')}`,
    description: null,
    address: {
      line1: `${draws.pick(STREETS)}, ${draws.between(10, 3999)}`,
      line2: draws.next() < 0.4 ? `Apto ${draws.between(1, 24)}${draws.digits(1)}${draws.between(1, 4)}` : null,
      line3: null,
      neighborhood: draws.pick(city.neighborhoods),
      city: city.name,
      state: city.state,
      postal_code: cep,
      country_code: 'BR',
    },
    metadata: {},
  };
  // Embossed in capitals without accents, the middle surname as its initial.
  const holder = [plain(first), ...surnames.slice(0, -1).map((s) => plain(s).charAt(0)), plain(family)].join(' ').toUpperCase();
  return { input, cards: buyerCards(seed, n, holder, now) };
}

/**
 * How many buyers a volume of `total` sales draws from: about one for every three sales, so most
 * come back to buy again and a few buy often; never more than 50,000, which keeps reading every
 * buyer (a search by e-mail does) to seconds.
 */
export function buyerPool(total: number): number {
  return Math.max(1, Math.min(50_000, Math.ceil(total / 3)));
}
