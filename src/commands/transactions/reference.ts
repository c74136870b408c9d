// A transaction named by what the customer quotes: the merchant's order number (its reference_id)
// stands for the transaction wherever an id is expected (get, refund, capture, boletos cancel).
// A 32-hex id is an id; anything else is looked up by reference_id, exactly. None: exit 5. More
// than one sale with that reference: exit 2 listing them, since picking one would be a guess.
import type { Factory } from '../../factory.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { formatMoney } from '../../output/format.js';
import { counted } from '../../platform/plural.js';
import { sanitize } from '../../output/table.js';
import { validateId } from '../../validate/index.js';
import { localDateTime } from '../../time/zone.js';
import type { Transaction } from './shared.js';

const ID = /^[0-9a-f]{32}$/;
/** How many sales with one reference are listed before "and more". */
const SHOWN = 5;

/** Whether `value` is a transaction id rather than a reference. */
export const isTransactionId = (value: string) => ID.test(value.trim());

/** The transaction id `args[0]` names: itself, or the one sale whose reference_id it is. */
export async function resolveTransactionId(ctx: Factory, args: string[], where = '<id>'): Promise<string> {
  let given = (args[0] ?? '').trim();
  // Not given: asked for on a terminal (the id, or the order number the customer quotes).
  if (given === '') {
    if (!ctx.interactive) throw new UsageError(`missing ${where}: give a transaction id or its reference_id (prompts are off: stdin or stdout is not a terminal, or --no-input was given)`);
    given = (await (await ctx.prompter()).text('Transaction id or reference_id (order number)', { validate: (v) => (v.trim() === '' ? 'give the id or the order number' : true) })).trim();
  }
  if (given === '' || isTransactionId(given)) return validateId(given, 'transaction id', where);
  if (/[\u0000-\u001f\u007f-\u009f]/.test(given) || given.length > 500) throw new UsageError(`${where}: give a transaction id or a reference_id (printable, at most 500 characters)`);
  if (ctx.globals.dryRun) throw new UsageError(`${where}: "${given}" is a reference_id, and --dry-run sends nothing, not even the lookup that finds its transaction; give the transaction id`);
  await ctx.requireApiKey();
  const api = await ctx.api();
  const found: Transaction[] = [];
  for await (const page of api.pages('transactions.list', { query: { reference_id: given } }, { limit: SHOWN + 1, all: false })) {
    // Kept only when the reference is exactly this one: a service may match more loosely.
    for (const tx of page as Transaction[]) if (tx.reference_id === given) found.push(tx);
  }
  if (found.length === 0) throw new CliError(`no transaction has the id or reference_id "${sanitize(given)}"`, ExitCode.notFound);
  if (found.length > 1) {
    const listed = found.slice(0, SHOWN).map((tx) => `${tx.id} (${formatMoney(tx.amount ?? '0', tx.currency)}, ${tx.status ?? '?'}, created ${createdAt(tx.created_at)})`);
    const more = found.length > SHOWN ? '; and more' : '';
    throw new UsageError(`reference_id "${sanitize(given)}" is on ${counted(found.length, 'transaction')}${more ? ' or more' : ''}: ${listed.join('; ')}${more}. Give the id of the one you mean`);
  }
  const [only] = found as [Transaction];
  ctx.log.status(`reference_id ${sanitize(given)}: transaction ${only.id}`);
  return only.id;
}

/** When a sale was made, for a message: its date, time and zone; what the service sent when it is not a time. */
function createdAt(value: unknown): string {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? sanitize(String(value ?? '?')) : localDateTime(ms);
}
