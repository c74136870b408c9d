import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CancelledError, CliError, DeclinedAtClientError, ExitCode, OutcomeUnknownError, PolicyRefusedError, ProbableDuplicateError } from '../../errors.js';
import { withoutControls } from '../../platform/control-chars.js';
import { currentOwner } from '../../platform/owner.js';
import type { CallOutcome } from './call.js';
import { pageResult, pageAsked } from './paging.js';
import { describeMove, describeRead, moneyText, UNKNOWN_TEXT, type DoneBy } from './result-text.js';
import type { ToolSpec } from './tool-spec.js';

// What an agent gets back from a tool call (docs/scripting.md, "The same answers, as an agent's tools get them"). A reading tool
// returns what its verb prints with -o json as structuredContent (a list as `{items, next_cursor?}`,
// a summary per group as `{groups}`), and one line a person would read. A money tool returns the
// envelope `{outcome, message, transaction?, request?, done_at?, done_by?}`, on success and on
// error alike. An error is a tool error saying what happened and what to do next. Every text from
// the service or the ledger is cleaned of control characters before the agent (or its person) reads it.

/** A call as the agent made it: the tool and its arguments, checked. */
export interface ToolCall {
  tool: ToolSpec;
  args: Record<string, unknown>;
}

/** Runs another verb's command line for the same agent (a read after a money call: the sale, the ledger). */
export type Reader = (words: string[]) => Promise<CallOutcome>;

export type Outcome = 'applied' | 'already_done' | 'waiting_for_approval' | 'unknown' | 'refused' | 'failed';

export interface MoneyEnvelope {
  outcome: Outcome;
  message: string;
  transaction?: Record<string, unknown>;
  request?: { id: string; state: string; summary: string; expires_at: string };
  done_at?: string;
  done_by?: string;
  [key: string]: unknown;
}

/** The ledger's record of a move, as `ledger list -o json` prints it (commands/ledger/shared.ts intentView). */
interface IntentSeen {
  id: number;
  created_at: string;
  holder: string;
  operator_name: string | null;
  pid: number;
  operation: string;
  target: string;
  amount: string | null;
  state: string;
}

/** The ledger's operation of each money tool's verb: what tells its move among a sale's others. */
const MOVE_OPERATIONS: Readonly<Record<string, string>> = {
  'transactions refund': 'transactions.void',
  'transactions capture': 'transactions.capture',
  'transactions create': 'transactions.create',
  'boletos cancel': 'boletos.cancel',
  'invoices refund': 'invoices.refund',
  'subscriptions remove': 'subscriptions.remove',
};

/** The moves whose ledger key is their sale's (`transaction:<id>`): `ledger list --transaction` finds them. */
const SALE_OPERATIONS: ReadonlySet<string> = new Set(['transactions.void', 'transactions.capture', 'boletos.cancel']);

/** How many of the ledger's latest moves are read to find a move that is not on a transaction (an invoice's). */
const LEDGER_READ = 200;

const clean = (text: string) => withoutControls(text);

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The message of what a call threw, cleaned. */
function messageOf(error: unknown): string {
  return clean(error instanceof Error ? error.message : String(error));
}

/** The exit code the command line would have ended with. */
function exitOf(error: unknown): number {
  return error instanceof CliError ? error.exitCode : ExitCode.internal;
}

/** What to do next after an error, by what kind of error it is (its exit code, as the contract's table). */
export function nextStep(error: unknown, tool: string): string {
  switch (exitOf(error)) {
    case ExitCode.usage:
      return `fix that argument and call ${tool} again (tools/list gives each input's meaning)`;
    case ExitCode.notFound:
      return 'check the id: a list or search tool (transactions_list, buyers_search…) finds the right one';
    case ExitCode.rejected:
      return 'the service refused it as asked: read the reason, and do not repeat the same call';
    case ExitCode.auth:
      if (error instanceof DeclinedAtClientError) return 'the person at the client did not confirm it: do not ask again unless they tell you to';
      return error instanceof PolicyRefusedError ? "a rule of the team's policy forbids it (payctl policy list says which): only a person can change that; do not try another way" : "the account's key was refused: a person must log in on a terminal (payctl login)";
    case ExitCode.rateLimited:
      return 'the service asks to slow down: wait a minute, then call again';
    case ExitCode.network:
      return 'nothing was changed; call again in a minute';
    case ExitCode.cancelled:
      return 'the person at the client did not confirm it; nothing was sent';
    default:
      return 'payctl could not do it; tell a person what you asked and what it said';
  }
}

/** A tool error: what happened and what to do next, text only. */
function toolError(tool: ToolSpec, error: unknown): CallToolResult {
  const message = inputsNamed(tool, messageOf(error));
  return { isError: true, content: [{ type: 'text', text: `${message}${/[.;:]$/.test(message) ? '' : '.'} Next: ${nextStep(error, tool.name)}.` }] };
}

/**
 * A call's result, from its arguments as the client sent them: checked (`check`, a refusal names
 * the argument), run (`run`, the verb's command line), and told as a reading or a money tool's
 * result. `read` runs another verb for the same agent (what a money call did, in the ledger).
 */
export async function toResult(
  tool: ToolSpec,
  given: unknown,
  run: (args: Record<string, unknown>) => Promise<CallOutcome>,
  read: Reader,
  check: (given: unknown) => Record<string, unknown>,
): Promise<CallToolResult> {
  let args: Record<string, unknown>;
  try {
    args = check(given);
  } catch (error) {
    return refusedCall(tool, error);
  }
  const call = { tool, args };
  // The command line is made first: a cursor that is not this list's is refused before anything runs.
  const started = (): Promise<CallOutcome> => {
    try {
      return run(args);
    } catch (error) {
      return Promise.resolve({ ok: false, error, printed: undefined, diagnostics: '' });
    }
  };
  return tool.class.kind === 'money' ? moneyCall(call, started, read) : readResult(call, await started());
}

/** A reading tool's result: what its verb printed (a page of a list, a summary, an object) and a line a person reads. */
export function readResult(call: ToolCall, outcome: CallOutcome): CallToolResult {
  const { tool, args } = call;
  // A transfer that does not add up is still explained: the explanation is the result, its difference said.
  if (!outcome.ok && exitOf(outcome.error) === ExitCode.unreconciled && isRecord(outcome.printed)) {
    return { content: [{ type: 'text', text: `${messageOf(outcome.error)}.` }], structuredContent: outcome.printed };
  }
  if (!outcome.ok) return toolError(tool, outcome.error);
  const structured = structuredOf(call, outcome.value);
  return { content: [{ type: 'text', text: describeRead(tool, structured) }], structuredContent: structured };
}

/** What a reading verb printed, as structuredContent: an object as it is; a list as a page; a summary per group as groups. */
export function structuredOf(call: ToolCall, value: unknown): Record<string, unknown> {
  if (isRecord(value)) return value;
  const items = Array.isArray(value) ? value : [];
  if (call.tool.paged && call.args.group_by !== undefined) return { groups: items };
  if (call.tool.paged) return pageResult(call.tool.name, call.args, pageAsked(call.tool.name, call.args), items);
  return { items };
}

/** The error of a call whose arguments were refused before its verb ran: a money tool's envelope, or a reading tool's text. */
export function refusedCall(tool: ToolSpec, error: unknown): CallToolResult {
  return tool.class.kind === 'money' ? envelope(tool.name, { outcome: 'failed', message: `${nothingSent(inputsNamed(tool, messageOf(error)))} Next: ${nextStep(error, tool.name)}.` }) : toolError(tool, error);
}

function envelope(tool: string, body: MoneyEnvelope): CallToolResult {
  return { isError: body.outcome !== 'applied' && body.outcome !== 'already_done', content: [{ type: 'text', text: moneyText(tool, body) }], structuredContent: body };
}

/** The id of the ledger's newest move: a move of this call is one newer than it. */
export async function newestMove(read: Reader): Promise<number> {
  const seen = await read(['ledger', 'list', '--limit=1']);
  const newest = seen.ok && Array.isArray(seen.value) ? (seen.value[0] as IntentSeen | undefined) : undefined;
  return newest?.id ?? 0;
}

/** The ledger's moves of `operation` on the resource `target` (or the sale of reference `reference`), newest first. */
async function movesOn(read: Reader, operation: string, target: string, reference: string | undefined): Promise<IntentSeen[]> {
  const onSale = SALE_OPERATIONS.has(operation);
  const seen = await read(['ledger', 'list', onSale ? `--transaction=${target}` : `--limit=${LEDGER_READ}`, ...(onSale ? [`--limit=${LEDGER_READ}`] : [])]);
  if (!seen.ok || !Array.isArray(seen.value)) return [];
  return (seen.value as IntentSeen[]).filter((intent) => intent.operation === operation && (intent.target === target || (reference !== undefined && intent.target === reference)));
}

/** Who made a move, as the ledger names them: `Ana Souza (ana@caixa-2)`, or an agent's `user@host`. */
function doneBy(intent: IntentSeen): DoneBy {
  return { at: intent.created_at, by: clean(intent.operator_name ? `${intent.operator_name} (${intent.holder})` : intent.holder), amount: intent.amount };
}

/** The id a money tool's call names (the sale, the invoice, the subscription): its `id` (`transaction_id` for a boleto's sale), else none. */
function targetOf(call: ToolCall): string | undefined {
  const id = call.args.id ?? call.args.transaction_id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * A money tool's call, start to end: the ledger's newest move noted, the verb run, and what it did
 * told as the envelope. A move this call made is `applied`; one payctl made before (a retry of the
 * same move: nothing sent now) is `already_done`, with the sale as it is and when and by whom the
 * move was made. That reading is the same for every retry: the latest applied move of that
 * operation on that resource, and the sale as the service has it, so each retry returns the same.
 */
export async function moneyCall(call: ToolCall, run: () => Promise<CallOutcome>, read: Reader): Promise<CallToolResult> {
  const before = await newestMove(read);
  const outcome = await run();
  return envelope(call.tool.name, await moneyEnvelope(call, outcome, before, read));
}

export async function moneyEnvelope(call: ToolCall, outcome: CallOutcome, before: number, read: Reader): Promise<MoneyEnvelope> {
  const operation = MOVE_OPERATIONS[call.tool.verb] ?? '';
  if (outcome.ok) {
    const printed = isRecord(outcome.value) ? outcome.value : undefined;
    const target = typeof printed?.id === 'string' ? printed.id : (targetOf(call) ?? '');
    const reference = typeof printed?.reference_id === 'string' ? printed.reference_id : undefined;
    const moves = await movesOn(read, operation, call.tool.verb === 'boletos cancel' ? (targetOf(call) ?? target) : target, reference);
    // Made by this call: newer than the move noted before it, and written by this process (calls
    // run one at a time), so another's move on the same sale meanwhile is never taken for this one.
    const made = moves.filter((intent) => intent.id > before && intent.pid === process.pid && intent.holder === currentOwner().holder);
    const now = made.find((intent) => intent.state === 'applied');
    const earlier = moves.find((intent) => intent.state === 'applied');
    if (now || (made.length > 0 && !earlier)) return { outcome: 'applied', message: describeMove(call.tool, printed, now && doneBy(now)), ...(printed ? { transaction: printed } : {}) };
    // Nothing was sent by this call: payctl made the move before, or the sale's own history shows it made.
    return alreadyDone(call, printed, earlier);
  }
  const error = outcome.error;
  if (error instanceof ProbableDuplicateError) return duplicate(call, error, operation, read);
  const request = approvalRequestOf(error);
  if (request) return { outcome: 'waiting_for_approval', message: moneyText(call.tool.name, { outcome: 'waiting_for_approval', message: '', request }), request };
  if (error instanceof OutcomeUnknownError) return { outcome: 'unknown', message: unknownMessage(messageOf(error)) };
  const refused = error instanceof PolicyRefusedError || error instanceof CancelledError || exitOf(error) === ExitCode.rateLimited;
  return { outcome: refused ? 'refused' : 'failed', message: `${nothingSent(inputsNamed(call.tool, messageOf(error)))} Next: ${nextStep(error, call.tool.name)}` };
}

/**
 * A lost answer, told to an agent: what the ledger knows, without the command line's advice to run
 * the command again (a person's: payctl then waits for the move's settle window, or checks), and
 * what the agent does instead: nothing, then ask later. payctl never sends that move twice.
 */
export function unknownMessage(message: string): string {
  const known = message.replace(/\s*(Run the same command again|Check with:)[\s\S]*$/, '').replace(/[;,.]\s*$/, '');
  return `${UNKNOWN_TEXT}. ${known}. A later call of the same tool (or ledger_show with the sale's id) says what happened; it never sends this move twice.`;
}

/** A message that ends saying nothing was sent, once. */
function nothingSent(message: string): string {
  return /nothing was sent\.?$/.test(message) ? `${message.replace(/\.$/, '')}.` : `${message}; nothing was sent.`;
}

/**
 * A verb's message in the tool's words: a flag it names (`--amount-cents`) is named as the tool's
 * input too (`amount_cents (--amount-cents)`), so the agent knows which argument to fix.
 */
export function inputsNamed(tool: ToolSpec, message: string): string {
  return message.replace(/(?<![\w-])--([a-z][a-z0-9-]*)/g, (flag, name: string) => {
    const input = name.replace(/-/g, '_');
    return tool.inputs.some((i) => i.name === input) ? `${input} (${flag})` : flag;
  });
}

/** A move payctl already made (exit 11, nothing sent): the sale as it is now, and the move as the ledger recorded it. */
async function duplicate(call: ToolCall, error: ProbableDuplicateError, operation: string, read: Reader): Promise<MoneyEnvelope> {
  const id = targetOf(call);
  const sale = id === undefined ? undefined : await read([...getVerb(call.tool.verb), '--', id]);
  const printed = sale?.ok && isRecord(sale.value) ? sale.value : undefined;
  const target = typeof printed?.id === 'string' ? printed.id : (id ?? '');
  const earlier = (await movesOn(read, operation, target, undefined)).find((intent) => intent.state === 'applied');
  return alreadyDone(call, printed, earlier);
}

function alreadyDone(call: ToolCall, printed: Record<string, unknown> | undefined, earlier: IntentSeen | undefined): MoneyEnvelope {
  const done = earlier && doneBy(earlier);
  return {
    outcome: 'already_done',
    message: describeMove(call.tool, printed, done, true),
    ...(printed ? { transaction: printed } : {}),
    ...(done ? { done_at: done.at, done_by: done.by } : {}),
  };
}

/** The verb that reads what a money verb moved: `transactions get` for a refund, `invoices get` for an invoice's. */
function getVerb(verb: string): string[] {
  const [group] = verb.split(' ');
  return group === 'boletos' ? ['transactions', 'get'] : [group ?? 'transactions', 'get'];
}

/** The approval request an error carries (the rules' gate throws it with `.request`): as the envelope says it. */
function approvalRequestOf(error: unknown): MoneyEnvelope['request'] | undefined {
  if (!(error instanceof CliError) || error.exitCode !== ExitCode.approvalPending) return undefined;
  const request = (error as { request?: unknown }).request;
  if (!isRecord(request) || typeof request.id !== 'string') return undefined;
  const expires = typeof request.expires_at === 'number' ? new Date(request.expires_at).toISOString() : String(request.expires_at ?? '');
  return { id: clean(request.id), state: clean(String(request.state ?? 'pending')), summary: clean(String(request.summary ?? '')), expires_at: expires };
}
