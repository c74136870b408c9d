import type { Factory } from '../../factory.js';
import { isoTime } from '../../ledger/time.js';
import { bookOf, findRequest, requestIdOf } from './shared.js';
import type { ArgsOf } from '../verb.js';
import type { status } from './flags.js';
import type { RequestStatus } from './status-shape.js';

/**
 * `payctl approvals status <id>`: a request's state in short, for a script or an agent waiting on
 * it. Exit 0 whatever the state: the state is the answer (a missing request is exit 5). A sent
 * request names its move in the ledger and that move's state (`applied`).
 */
export async function run(ctx: Factory, args: ArgsOf<typeof status>): Promise<void> {
  const id = requestIdOf(args[0]);
  const { ledger, book } = await bookOf(ctx);
  const request = await findRequest(book, ledger, id);
  // The move a sent request made, as the ledger holds it now: `applied` once the service showed it done.
  const intent = request.intent_id === null || request.key === null ? undefined : (await ledger.intentsOn([request.key])).find((i) => i.id === request.intent_id);
  const answer: RequestStatus = {
    id: request.id,
    state: request.state,
    summary: request.summary,
    expires_at: isoTime(ledger.local(request.expires_at)),
    decided_by: request.decided_by,
    decided_by_name: request.decided_by_name,
    decided_at: request.decided_at === null ? null : isoTime(ledger.local(request.decided_at)),
    reason: request.reason,
    intent_id: request.intent_id,
    intent_state: intent?.state ?? null,
  };
  await ctx.out.render(answer);
}
