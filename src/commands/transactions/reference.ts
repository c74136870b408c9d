// A transaction named by what the customer quotes: the merchant's order number (its reference_id)
// stands for the transaction wherever an id is expected (get, refund, capture, boletos cancel).
// A 32-hex id is an id; anything else is looked up by reference_id, exactly. None: exit 5, with
// the references near it that the service can find cheaply ("did you mean pedido-7788?"), but
// never the sale of one of them: a near match is a suggestion, never acted on. More than one sale
// with that reference: exit 2 listing them, since picking one would be a guess.
import type { Factory } from '../../factory.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { formatMoney } from '../../output/format.js';
import { counted } from '../../platform/plural.js';
import { sanitize } from '../../output/sanitize.js';
import { closest } from '../../validate/closest.js';
import { validateId } from '../../validate/index.js';
import type { ApiClient } from '../../api/client.js';
import { fold } from './find.js';
import { localDateTime } from '../../time/zone.js';
import type { Transaction } from './shared.js';

const ID = /^[0-9a-f]{32}$/;
/** How many sales with one reference are listed before "and more". */
const SHOWN = 5;
/** How many of the latest sales a reference not found is compared with. */
export const NEAR_SCAN = 200;
/** How many near references are suggested. */
const NEAR_SHOWN = 3;

/** Whether `value` is a transaction id rather than a reference. */
export const isTransactionId = (value: string) => ID.test(value.trim());

/** What finding a sale needs of the Factory's parts, and nothing more (a test hands it these alone). */
export interface FinderNeeds {
  /** To ask for the sale on a terminal, or say why nothing can be asked. */
  prompts: Pick<Factory['prompts'], 'off' | 'prompter'>;
  /** A dry run sends nothing, not even the lookup of a reference. */
  globals: Pick<Factory['globals'], 'dryRun'>;
  /** The key checked, and the client that lists the sales. */
  service: Pick<Factory['service'], 'requireApiKey' | 'api'>;
  /** Where the sale a reference named is said. */
  log: Pick<Factory['log'], 'status'>;
}

/**
 * Turns what a user typed for a sale into its id (gh's PR finder): a verb by id finds its sale in
 * one step, given only what that needs. `where` names the argument in messages; `suggest`: when no
 * sale has the reference, look for near ones to name (a caller that carries on without the sale
 * does not).
 */
export class SaleFinder {
  private readonly where: string;
  private readonly suggest: boolean;

  constructor(
    private readonly needs: FinderNeeds,
    { where = '<id>', suggest = true }: { where?: string; suggest?: boolean } = {},
  ) {
    this.where = where;
    this.suggest = suggest;
  }

  /** The id `typed` names: itself, or the one sale whose reference_id it is (asked for on a terminal when nothing was typed). */
  async saleId(typed: string | undefined): Promise<string> {
    const given = (typed ?? '').trim() || (await this.ask());
    if (given === '' || isTransactionId(given)) return validateId(given, 'transaction id', this.where);
    const found = await this.withReference(given);
    if (found.length === 0) {
      const near = this.suggest ? await nearReferences(await this.needs.service.api(), given) : undefined;
      const hint = near === undefined ? '' : near.length > 0 ? ` (did you mean ${near.map(sanitize).join(' or ')}?)` : `, and none of the latest ${NEAR_SCAN} sales has one like it`;
      throw new CliError(`no transaction has the id or reference_id "${sanitize(given)}"${hint}`, ExitCode.notFound);
    }
    if (found.length > 1) {
      const listed = found.slice(0, SHOWN).map((tx) => `${tx.id} (${formatMoney(tx.amount ?? '0', tx.currency)}, ${tx.status ?? '?'}, created ${createdAt(tx.created_at)})`);
      const more = found.length > SHOWN ? '; and more' : '';
      throw new UsageError(`reference_id "${sanitize(given)}" is on ${counted(found.length, 'transaction')}${more ? ' or more' : ''}: ${listed.join('; ')}${more}. Give the id of the one you mean`);
    }
    const [only] = found as [Transaction];
    this.needs.log.status(`reference_id ${sanitize(given)}: transaction ${only.id}`);
    return only.id;
  }

  /** Not typed (refund takes --file instead): asked for on a terminal, the id or the order number the customer quotes. */
  private async ask(): Promise<string> {
    const prompts = this.needs.prompts;
    const off = prompts.off;
    if (off !== undefined) throw new UsageError(`missing ${this.where}: give a transaction id or its reference_id (prompts are off: ${off})`);
    return (await (await import('../shared/ask-missing.js')).askTyped(prompts, { noun: 'transaction' }, this.where)).trim();
  }

  /** The sales (up to SHOWN + 1) whose reference_id is exactly `given`: a service may match more loosely. */
  private async withReference(given: string): Promise<Transaction[]> {
    if (/[\u0000-\u001f\u007f-\u009f]/.test(given) || given.length > 500) throw new UsageError(`${this.where}: give a transaction id or a reference_id (printable, at most 500 characters)`);
    if (this.needs.globals.dryRun) throw new UsageError(`${this.where}: "${given}" is a reference_id, and --dry-run sends nothing, not even the lookup that finds its transaction; give the transaction id`);
    await this.needs.service.requireApiKey();
    const api = await this.needs.service.api();
    const found: Transaction[] = [];
    for await (const page of api.pages('transactions.list', { query: { reference_id: given } }, { limit: SHOWN + 1, all: false })) {
      for (const tx of page as Transaction[]) if (tx.reference_id === given) found.push(tx);
    }
    return found;
  }
}

/** A reference payctl made up (create.ts, generatedReference). */
const GENERATED = /^payctl-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A reference as people compare them: lower case, no accents, letters and digits only ("Pedido #7788" → "pedido7788"). */
const key = (reference: string) => fold(reference).replace(/[^a-z0-9]/g, '');

/** The runs of 3 digits or more: what an order number is known by ("pedido 7788" → 7788). */
const numbersIn = (text: string): string[] => text.match(/\d{3,}/g) ?? [];

/**
 * The spellings of what a customer says that a reference may be written as: "pedido 7788" may be
 * pedido-7788, pedido_7788 or pedido7788. Each is asked of the service's exact reference_id filter.
 */
export function spellings(given: string): string[] {
  const words = fold(given).split(/[^a-z0-9]+/).filter(Boolean);
  const raw = given.trim().split(/[\s#_.\/-]+/).filter(Boolean);
  const all = [words.join('-'), words.join('_'), words.join(''), raw.join('-'), words.join('-').toUpperCase()];
  return [...new Set(all)].filter((s) => s !== '' && s !== given);
}

/**
 * References near `given` that sales have: its other spellings (asked of the reference_id filter,
 * exactly), then, among the references of the latest NEAR_SCAN sales, those that are it spelled
 * otherwise ("Pedido 7788"), that carry its order number whole ("7788" → pedido-7788), or that are a
 * typo away from it. At most NEAR_SHOWN, the exact spellings first.
 */
export async function nearReferences(api: ApiClient, given: string): Promise<string[]> {
  const near = new Set<string>();
  for (const spelling of spellings(given)) {
    const page = await api.call('transactions.list', { query: { reference_id: spelling, limit: 1 } });
    if (page.items.some((tx) => tx.reference_id === spelling)) near.add(spelling);
  }
  const wanted = key(given);
  const numbers = numbersIn(given);
  const seen: string[] = [];
  for await (const page of api.pages('transactions.list', { query: {} }, { limit: NEAR_SCAN, all: false })) {
    for (const tx of page as Transaction[]) {
      const reference = tx.reference_id;
      if (typeof reference !== 'string' || reference === given || seen.includes(reference)) continue;
      seen.push(reference);
      // A reference payctl made up is no order number, whatever digits its uuid holds.
      const theirs = GENERATED.test(reference) ? [] : numbersIn(reference);
      if (key(reference) === wanted || (numbers.length > 0 && numbers.every((n) => theirs.includes(n)))) near.add(reference);
    }
  }
  if (near.size === 0 && wanted.length >= 4) {
    // One typo (a digit changed, two swapped): the closest reference, compared as people read
    // them. Two orders' numbers often differ by more, and are other orders.
    const byKey = new Map(seen.map((reference) => [key(reference), reference]));
    const typo = closest(wanted, [...byKey.keys()], 1);
    if (typo !== undefined) near.add(byKey.get(typo) as string);
  }
  return [...near].slice(0, NEAR_SHOWN);
}

/** When a sale was made, for a message: its date, time and zone; what the service sent when it is not a time. */
function createdAt(value: unknown): string {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? sanitize(String(value ?? '?')) : localDateTime(ms);
}
