import { SANDBOX_MARKETPLACE_ID } from '../provider/sandbox-account.js';
import { notFound } from './errors.js';
import type { Change, Creation, Handler, RequestContext } from './route.js';
import { mutateState, readState } from './store.js';
import type { SandboxState } from './types.js';

// What the route tables (routes*.ts) are made of: a read of the state as it is, or a change made
// in one write transaction, whose request body (when it has one) is read before the state is
// locked, so a refused body never waits for the lock or holds it.

/** The path's `{id}`. */
export const idOf = (c: RequestContext): string => c.params.id ?? '';

/** 404 for any marketplace but the sandbox's own, in the prefix or in the path of the few routes that name it. */
export function requireMarketplace(id: string): void {
  if (id !== SANDBOX_MARKETPLACE_ID) throw notFound('marketplace', id);
}

/** A read: answers 200 with what `answer` makes of the state as it is. */
export function reading(answer: (state: SandboxState, c: RequestContext) => unknown): Handler {
  return async (c) => ({ status: 200, body: answer(await readState(c.stateDir, c.now), c) });
}

/** A change: answers `status` with what `change` returns. */
export function changing(change: (state: SandboxState, c: RequestContext) => unknown, status = 200): Handler {
  return planned(() => undefined, (_, state, c) => change(state, c), status);
}

/** A change planned from the request first (its body read and checked), then made: answers `status`. */
export function planned<P, B>(plan: (c: RequestContext<B>) => P, change: (planned: P, state: SandboxState, c: RequestContext<B>) => unknown, status = 200): Handler<B> {
  return async (c) => {
    const made = plan(c);
    return { status, body: await mutateState(c.stateDir, c.now, (state) => change(made, state, c)) };
  };
}

/**
 * A change of the record the path's `{id}` names: `plan` reads the request first, `find` looks the
 * record up under the lock (404 when there is none) and the change is made to it. Answers 200 with
 * `answer` of the record, or the record itself.
 */
export function changingOne<R, B>(
  find: (state: SandboxState, id: string) => R,
  plan: (c: RequestContext<B>) => Change<R>,
  answer: (record: R, state: SandboxState) => unknown = (record) => record,
): Handler<B> {
  return planned(plan, (change, state, c) => {
    const record = find(state, idOf(c));
    change(record, state, c.now());
    return answer(record, state);
  });
}

/** A creation: `plan` reads the body and gives what makes the record; answers 201 unless told. */
export function creating<B>(plan: (body: B, now: Date) => Creation<unknown>, status = 201): Handler<B> {
  return planned(
    (c) => plan(c.body, c.now()),
    (make, state, c) => make(state, c.now()),
    status,
  );
}

/** `handler`, flagged with what the server must know of its route (route.ts). */
export function flagged<B>(flags: Pick<Handler, 'ownsCatchUp' | 'noBody'>, handler: Handler<B>): Handler<B> {
  return Object.assign((c: RequestContext<B>) => handler(c), flags);
}
