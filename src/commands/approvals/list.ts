import type { Factory } from '../../factory.js';
import { ValidationError } from '../../errors.js';
import { REQUEST_STATES, type RequestState } from '../../ledger/policy/types.js';
import { optionalString } from '../shared/input.js';
import { enumValues } from '../shared/list.js';
import { REQUEST_COLUMNS, bookOf, requestTableRow, requestView } from './shared.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { list } from './flags.js';

export async function run(ctx: Factory, _args: ArgsOf<typeof list>, options: OptionsOf<typeof list>): Promise<void> {
  const states = enumValues(optionalString(options.state)?.toLowerCase(), REQUEST_STATES, '--state') as RequestState[];
  const batch = optionalString(options.batch);
  const limitText = optionalString(options.limit) ?? '50';
  if (!/^\d+$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 100_000) throw new ValidationError('--limit', 'give a whole number from 1 to 100000');
  const { ledger, book } = await bookOf(ctx);
  const requests = await book.requests({ limit: Number(limitText), ...(states.length > 0 ? { states } : {}), ...(batch !== undefined ? { batch } : {}) }, ledger.now());
  await ctx.out.renderRows(
    requests.map((request) => requestView(request, ledger)),
    REQUEST_COLUMNS,
    requestTableRow,
  );
  if (requests.length === 0) ctx.log.status(`no approval requests in the ledger ${ledger.where}${states.length > 0 || batch !== undefined ? ' match' : ' yet'}`);
}
