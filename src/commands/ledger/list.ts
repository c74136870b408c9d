import type { Factory } from '../../factory.js';
import { ValidationError } from '../../errors.js';
import { UNRESOLVED, type IntentState } from '../../ledger/types.js';
import { parseDate, validateId } from '../../validate/index.js';
import { optionalString } from '../shared/input.js';
import { enumValues } from '../shared/list.js';
import { INTENT_COLUMNS, intentTableRow, intentView, readLedger } from './shared.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { list } from './flags.js';

const STATES: readonly IntentState[] = ['pending', 'applied', 'refused', 'not_applied', 'unknown'];

/** `--since`: a day (its start, local time) or a span back from now (30m, 12h, 7d). */
export function parseSince(value: string, now = Date.now()): number {
  const span = /^(\d+)\s*(m|h|d)$/i.exec(value.trim());
  if (span) return now - Number(span[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[span[2]!.toLowerCase() as 'm' | 'h' | 'd'];
  const day = parseDate(value, '--since');
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d).getTime();
}

export async function run(ctx: Factory, _args: ArgsOf<typeof list>, options: OptionsOf<typeof list>): Promise<void> {
  // A comma list, as --help says: `--state pending,unknown` is every move whose outcome is open.
  const states = enumValues(optionalString(options.state)?.toLowerCase(), STATES, '--state');
  const since = optionalString(options.since);
  const transaction = optionalString(options.transaction);
  const limitText = optionalString(options.limit) ?? '50';
  if (!/^\d+$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 100_000) throw new ValidationError('--limit', 'give a whole number from 1 to 100000');
  const filter = {
    limit: Number(limitText),
    ...(states.length > 0 ? { states: states as IntentState[] } : {}),
    ...(transaction !== undefined ? { key: `transaction:${validateId(transaction, 'transaction id', '--transaction')}` } : {}),
  };
  await readLedger(ctx, async (ledger) => {
    // A lost ledger with nothing left to read: an empty list, after the warning that said so.
    if (!ledger) {
      await ctx.out.renderRows([], INTENT_COLUMNS);
      ctx.log.status('nothing is there now');
      return;
    }
    const intents = await ledger.list({ ...filter, ...(since !== undefined ? { since: parseSince(since) + (ledger.now() - Date.now()) } : {}) });
    const rows = intents.map((intent) => intentView(intent, ledger));
    await ctx.out.renderRows(rows, INTENT_COLUMNS, intentTableRow);
    if (rows.length === 0) ctx.log.status(`no money moves in the ledger ${ledger.where}${states.length > 0 || since || transaction ? ' match' : ' yet'}`);
    const open = intents.filter((i) => UNRESOLVED.includes(i.state)).length;
    if (open > 0 && (await ctx.out.outputFormat()) === 'table') ctx.log.status(`${open} with an open outcome: the next money move on each checks it first ('payctl ledger show <id>')`);
  });
}
