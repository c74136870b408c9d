import type { Factory } from '../../factory.js';
import { bookOf, findRequest, requestIdOf, requestView } from './shared.js';
import type { ArgsOf } from '../verb.js';
import type { status } from './flags.js';

/**
 * `payctl approvals status <id>`: a request's state in short, for a script or an agent waiting on
 * it. Exit 0 whatever the state: the state is the answer (a missing request is exit 5). A sent
 * request names its move in the ledger and that move's state (`applied`).
 */
export async function run(ctx: Factory, args: ArgsOf<typeof status>): Promise<void> {
  const id = requestIdOf(args[0]);
  const { ledger, book } = await bookOf(ctx);
  const request = await findRequest(book, ledger, id);
  const view = requestView(request, ledger);
  // The move a sent request made, as the ledger holds it now: `applied` once the service showed it done.
  const intent = request.intent_id === null || request.key === null ? undefined : (await ledger.intentsOn([request.key])).find((i) => i.id === request.intent_id);
  await ctx.out.render({
    id: view.id,
    state: view.state,
    summary: view.summary,
    expires_at: view.expires_at,
    decided_by: view.decided_by,
    decided_by_name: view.decided_by_name,
    decided_at: view.decided_at,
    reason: view.reason,
    intent_id: view.intent_id,
    intent_state: intent?.state ?? null,
  });
}
