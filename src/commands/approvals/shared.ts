import type { Factory } from '../../factory.js';
import { operatorLabel, withAgent } from '../../ledger/actor.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { PolicyBook } from '../../ledger/policy/book.js';
import type { ApprovalRequest } from '../../ledger/policy/types.js';
import { isoTime } from '../../ledger/time.js';
import { AMOUNT_COLUMN } from '../../output/columns.js';
import type { Column } from '../../output/render-options.js';
import { agentSignal } from '../../platform/agent.js';
import { withoutControls } from '../../platform/control-chars.js';
import { localDateTime } from '../../time/zone.js';
import { centsToDecimalString } from '../../validate/index.js';
import { ledgerOf } from '../ledger/shared.js';

/** The ledger of the current profile's account and its book of rules and requests. */
export async function bookOf(ctx: Factory): Promise<{ ledger: Ledger; book: PolicyBook }> {
  const ledger = await ledgerOf(ctx);
  return { ledger, book: ledger.policy };
}

const REQUEST_ID = /^apr_[A-Za-z0-9]{4,64}$/;

/** A request's id as given (`apr_…`), or exit 2 naming the argument. */
export function requestIdOf(given: string | undefined, where = '<request-id>'): string {
  const id = (given ?? '').trim();
  if (!REQUEST_ID.test(id)) throw new UsageError(`${where}: "${id.replace(/[\u0000-\u001f\u007f]/g, '?')}" is not a request id; give the apr_… id 'payctl approvals list' shows`);
  return id;
}

/** The request as it stands now, or exit 5 naming the ledger it is not in. */
export async function findRequest(book: PolicyBook, ledger: Ledger, id: string): Promise<ApprovalRequest> {
  const request = await book.request(id, ledger.now());
  if (!request) throw new CliError(`no approval request ${id} in the ledger ${ledger.where} ('payctl approvals list' shows them)`, ExitCode.notFound);
  return request;
}

/** `2026-11-28 17:57:03 UTC−03:00`, from a time on the ledger's clock. */
export const ledgerTime = (ledger: Ledger, ms: number): string => localDateTime(ledger.local(ms));

/** Who, as a person reads it: `Ana Souza (ana@caixa-2)`, or the holder alone. */
export function who(holder: string | null, name: string | null | undefined): string {
  return holder === null ? 'nobody' : withoutControls(operatorLabel({ holder, name }));
}

/**
 * What a request says in words, for a status line or an error: its summary and reason were put
 * together on another machine, from what a buyer typed and what a service answered.
 */
export const said = (text: string | null): string => withoutControls(text ?? '');

/** A request as `approvals list`, `show` and `status` print it: times as ISO, the amount as a decimal string. */
export function requestView(request: ApprovalRequest, ledger: Ledger): Record<string, unknown> {
  const time = (ms: number | null) => (ms === null ? null : isoTime(ledger.local(ms)));
  return {
    id: request.id,
    state: request.state,
    operation: request.operation,
    summary: request.summary,
    amount: request.amount_cents === null ? null : centsToDecimalString(request.amount_cents),
    currency: request.currency,
    target: request.target,
    key: request.key,
    requester: request.requester,
    requester_name: request.requester_name,
    requester_kind: request.requester_kind,
    requester_agent: request.requester_agent,
    rule: request.rule_id,
    batch: request.batch_name,
    row: request.row,
    created_at: time(request.created_at),
    expires_at: time(request.expires_at),
    decided_by: request.decided_by,
    decided_by_name: request.decided_by_name,
    decided_at: time(request.decided_at),
    reason: request.reason,
    intent_id: request.intent_id,
    digest: request.digest,
    command: request.replay === null ? null : ['payctl', ...request.replay].join(' '),
  };
}

/** Who asked, as a person reads it: `Ana Souza (ana@caixa-2)`, `an AI agent (claude-code) as ana@caixa-2`. */
export function askedBy(request: Pick<ApprovalRequest, 'requester' | 'requester_name' | 'requester_kind' | 'requester_agent'>): string {
  const asker = who(request.requester, request.requester_name);
  if (request.requester_kind !== 'agent') return asker;
  return request.requester_agent ? `an AI agent (${said(request.requester_agent)}) as ${asker}` : `an AI agent as ${asker}`;
}

/** A table's row of a request: who asked, `ana@caixa-2, agent claude-code` (JSON keeps requester, its name, kind and agent apart). */
export function requestTableRow(view: Record<string, unknown>): Record<string, unknown> {
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const asker = who(text(view.requester), text(view.requester_name));
  const agent = text(view.requester_agent);
  return { ...view, requester: agent === null ? asker : withAgent(asker, said(agent)) };
}

/** The table's columns: what and how much are never cut; who asked and the expiry give way first. */
export const REQUEST_COLUMNS: Column[] = [
  { key: 'id', header: 'ID', kind: 'id' },
  { key: 'created_at', header: 'WHEN', kind: 'date' },
  { key: 'requester', header: 'REQUESTER', kind: 'text' },
  { key: 'operation', header: 'OPERATION', kind: 'id' },
  AMOUNT_COLUMN,
  { key: 'target', header: 'SALE', kind: 'id', optional: true },
  { key: 'state', header: 'STATE', kind: 'status' },
  { key: 'expires_at', header: 'EXPIRES', kind: 'date' },
];

/** An AI agent's shell never decides a request (exit 2): a person does. */
export function refuseAgent(ctx: Factory, verb: 'approve' | 'deny'): void {
  const agent = agentSignal(ctx.io.env);
  if (agent !== undefined) throw new UsageError(`an AI agent's shell (${agent}) cannot ${verb} a request: a person decides, on a terminal of their own`);
}

/**
 * Whether the person running this may decide `request` (approve or deny it), else why not:
 * an agent's shell never decides (exit 2, as with prompts off); on this machine's own ledger only
 * an agent's request can be decided (four eyes need two people, so a shared ledger: exit 2); and never by
 * whoever asked, the same user@host (exit 4). An agent's request is decided by a person on the
 * machine it ran on: that is the point of asking.
 */
export function checkMayDecide(ctx: Factory, ledger: Ledger, request: ApprovalRequest, verb: 'approve' | 'deny'): void {
  refuseAgent(ctx, verb);
  if (request.requester_kind === 'agent') return;
  if (ledger.kind === 'sqlite') {
    // As `policy add` says of a rule that needs a second person here: a setup to change, exit 2.
    throw new UsageError(
      `request ${request.id} was made by ${who(request.requester, request.requester_name)}, ${request.requester_kind === 'script' ? 'a script run by a person' : 'a person'}: four eyes need a second person, so a ledger the team shares ('payctl config set ledger_url postgres://…' on every operator's machine); this machine's own ledger (${ledger.where}) is only ever one person's`,
    );
  }
  if (request.requester === ledger.me.holder) {
    throw new CliError(`you (${ledger.me.holder}) asked for request ${request.id}: another operator must ${verb} it, on their own terminal`, ExitCode.auth);
  }
}

/** Why a request can no longer be decided (decided already, or past its expiry), or undefined while it is pending. */
export function notPending(request: ApprovalRequest, ledger: Ledger): string | undefined {
  const by = who(request.decided_by, request.decided_by_name);
  const at = request.decided_at === null ? '' : ` at ${ledgerTime(ledger, request.decided_at)}`;
  switch (request.state) {
    case 'pending':
      return undefined;
    case 'expired':
      return `request ${request.id} expired at ${ledgerTime(ledger, request.expires_at)}, undecided; nothing was sent. Whoever asked runs the command again to ask anew`;
    case 'approved':
      return `request ${request.id} was already approved by ${by}${at}, who is sending it`;
    case 'sent':
      return `request ${request.id} was already approved by ${by}${at} and sent${request.intent_id === null ? '' : ` (ledger intent ${request.intent_id})`}`;
    case 'denied':
      return `request ${request.id} was denied by ${by}${at}: ${request.reason === null ? 'no reason given' : said(request.reason)}`;
    case 'failed':
      return `request ${request.id} was approved by ${by}${at} but failed: ${request.reason === null ? 'no reason recorded' : said(request.reason)}; nothing was sent`;
  }
}

