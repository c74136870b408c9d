import type { Factory } from '../../factory.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { PolicyBook } from '../../ledger/policy/book.js';
import type { ApprovalRequest } from '../../ledger/policy/types.js';
import { formatMoney } from '../../output/format.js';
import { counted } from '../../platform/plural.js';
import { centsToDecimalString, parseAmount } from '../../validate/index.js';
import { optionalString } from '../shared/input.js';
import { writeOut } from '../../output/write.js';
import { sendApproved, type SendOutcome } from './send.js';
import { askedBy, bookOf, checkMayDecide, findRequest, ledgerTime, notPending, refuseAgent, requestIdOf, said } from './shared.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { approve } from './flags.js';

export function check(args: ArgsOf<typeof approve>, options: OptionsOf<typeof approve>): void {
  if (args[0] !== undefined && options.batch !== undefined) throw new UsageError('give either a request id or --batch, not both');
  if (args[0] === undefined && optionalString(options.batch) === undefined) throw new UsageError("give the request's id (apr_…) or --batch <name>: 'payctl approvals list --state pending' shows them");
}

/** Whether what a person typed is `cents`: `600`, `600,00`, `600.00`, `R$ 600,00`, `1.234,56`. */
export function typedAmount(typed: string, cents: number): boolean {
  let text = typed.trim().replace(/^R\$\s*/i, '');
  if (/^\d{1,3}(\.\d{3})+(,\d{1,2})?$/.test(text)) text = text.replace(/\./g, '');
  try {
    return parseAmount(text) === cents;
  } catch {
    return false;
  }
}

/**
 * Asks for the amount to be typed back (a move without one: its sale's id); a mistake asks
 * again, Ctrl-C stops (exit 3). What is typed is the approval: --yes does not answer it.
 */
async function typeBack(ctx: Factory, cents: number | null, word: { text: string; what?: string }, currency: string | null): Promise<void> {
  const prompter = await ctx.prompts.prompter();
  if (cents === null) {
    const asked = word.what === undefined ? word.text : `${word.what} (${word.text})`;
    await prompter.text(`Type ${asked} to approve`, { validate: (v) => v.trim() === word.text || `type ${word.text} as shown, or press Ctrl-C to stop` });
    return;
  }
  const shown = formatMoney(centsToDecimalString(cents), currency);
  await prompter.text(`Type the amount (${shown}) to approve`, { validate: (v) => typedAmount(v, cents) || `type ${shown} (or ${centsToDecimalString(cents).replace('.', ',')}), or press Ctrl-C to stop` });
}

/** What is typed back for a request without an amount: what it moves (a sale's id), the rule a change removes, else the word approve. */
function typedWord(request: ApprovalRequest): string {
  if (request.target !== null) return request.target;
  return request.change?.action === 'remove' ? request.change.rule : 'approve';
}

/** Refuses anyone but a person on a terminal: an agent's shell, a script, --no-input; and --dry-run, which cannot approve. */
function requirePerson(ctx: Factory): void {
  refuseAgent(ctx, 'approve');
  const off = ctx.prompts.off;
  if (off !== undefined) throw new UsageError(`approving needs a person on a terminal (${off}): the amount is typed back by whoever approves`);
  if (ctx.globals.dryRun) throw new UsageError("--dry-run cannot approve: 'payctl approvals show <id>' shows what approving would send");
}

export async function run(ctx: Factory, args: ArgsOf<typeof approve>, options: OptionsOf<typeof approve>): Promise<void> {
  requirePerson(ctx);
  const batch = optionalString(options.batch);
  const { ledger, book } = await bookOf(ctx);
  if (batch !== undefined) return approveBatch(ctx, ledger, book, batch);
  const id = requestIdOf(args[0]);
  let request = await findRequest(book, ledger, id);
  checkMayDecide(ctx, ledger, request, 'approve');
  // An approver whose command died after taking the request finishes it: the ledger sends it once.
  const resuming = request.state === 'approved' && request.decided_by === ledger.me.holder;
  const why = resuming ? undefined : notPending(request, ledger);
  if (why !== undefined) throw new CliError(why, ExitCode.auth);
  if (request.operation !== 'policy' && request.replay === null) throw new CliError(`request ${id} holds no command to send it by; nothing was sent`, ExitCode.rejected);
  ctx.log.status(`${said(request.summary)}\nAsked by ${askedBy(request)} at ${ledgerTime(ledger, request.created_at)}; expires ${ledgerTime(ledger, request.expires_at)}.`);
  await typeBack(ctx, request.amount_cents, { text: typedWord(request) }, request.currency);
  if (resuming) ctx.log.warn(`you approved request ${id} at ${ledgerTime(ledger, request.decided_at ?? request.created_at)} and it was not finished: sending it now (the ledger sends it at most once)`);
  else {
    const taken = await book.approve(id, await ctx.actor(), ledger.now());
    if (!taken.ok) throw new CliError(`${notPending(taken.request, ledger) ?? `request ${id} was taken by another approver`}; nothing was sent by you`, ExitCode.auth);
    request = taken.request;
    if (request.operation === 'policy') {
      ctx.log.status(`Approved request ${id}: the rule change is in force ('payctl policy list').`);
      return;
    }
  }
  const outcome = await sendApproved(ctx, ledger, book, request);
  if (outcome.state === 'failed') throw new CliError(`request ${id} failed, and is marked so: ${outcome.reason}${/nothing was sent/i.test(outcome.reason) ? '' : '; nothing was sent'}`, ExitCode.rejected);
  ctx.log.status(`Request ${id} approved by you and sent (ledger intent ${outcome.intentId}).`);
}

/** A line for a person on a terminal, or a JSON line for a script, per request of a batch. */
function batchLine(format: string, request: ApprovalRequest, state: string, detail: string | null): string {
  if (format !== 'table') return `${JSON.stringify({ id: request.id, state, row: request.row, target: request.target, amount: request.amount_cents === null ? null : centsToDecimalString(request.amount_cents), reason: detail })}\n`;
  const amount = request.amount_cents === null ? 'all' : formatMoney(centsToDecimalString(request.amount_cents), request.currency);
  return `${request.id}  ${state.padEnd(6)}  ${amount}  ${request.target ?? said(request.summary)}${detail ? `: ${said(detail)}` : ''}\n`;
}

/**
 * `approvals approve --batch NAME`: the pending requests of one bulk run (by its name or id): the
 * count and total first, the total typed back once, then each sent as one approve sends it, a
 * line each. Exit 10 when any failed or could not be finished.
 */
async function approveBatch(ctx: Factory, ledger: Ledger, book: PolicyBook, name: string): Promise<void> {
  const pending = (await book.requests({ states: ['pending'], batch: name, limit: 100_000 }, ledger.now())).sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
  if (pending.length === 0) throw new CliError(`no pending approval requests of a batch named ${name} in the ledger ${ledger.where} ('payctl approvals list --batch ${name}' shows what became of them)`, ExitCode.notFound);
  for (const request of pending) checkMayDecide(ctx, ledger, request, 'approve');
  const cents = pending.reduce((sum, r) => sum + (r.amount_cents ?? 0), 0);
  const currency = pending.find((r) => r.currency !== null)?.currency ?? null;
  const unpriced = pending.filter((r) => r.amount_cents === null).length;
  const requesters = [...new Set(pending.map(askedBy))].join(', ');
  ctx.log.status(`Batch ${name}: ${counted(pending.length, 'request')}, ${formatMoney(centsToDecimalString(cents), currency)} in all${unpriced > 0 ? ` (${unpriced} without an amount)` : ''}, asked by ${requesters}.`);
  for (const request of pending.slice(0, 10)) ctx.log.status(`  ${request.id}  ${said(request.summary)}`);
  if (pending.length > 10) ctx.log.status(`  … and ${counted(pending.length - 10, 'more request')} ('payctl approvals list --batch ${name}')`);
  await typeBack(ctx, cents > 0 ? cents : null, { text: String(pending.length), what: 'the number of requests' }, currency);

  const approver = await ctx.actor();
  const format = await ctx.out.outputFormat();
  const writeLine = (line: string) => writeOut(ctx.io.stdout, line);
  const counts = { sent: 0, failed: 0, taken: 0, cents: 0 };
  for (const request of pending) {
    const taken = await book.approve(request.id, approver, ledger.now());
    if (!taken.ok) {
      counts.taken += 1;
      await writeLine(batchLine(format, taken.request, taken.request.state, notPending(taken.request, ledger) ?? null));
      continue;
    }
    let outcome: SendOutcome | { state: 'unfinished'; reason: string };
    try {
      outcome = await sendApproved(ctx, ledger, book, taken.request, true);
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      outcome = { state: 'unfinished', reason: err.message };
    }
    if (outcome.state === 'sent') {
      counts.sent += 1;
      counts.cents += taken.request.amount_cents ?? 0;
    } else counts.failed += 1;
    await writeLine(batchLine(format, taken.request, outcome.state, outcome.state === 'sent' ? null : outcome.reason));
  }
  const taken = counts.taken > 0 ? `; ${counted(counts.taken, 'request')} decided by someone else meanwhile` : '';
  ctx.log.status(`Sent ${counts.sent} of ${counted(pending.length, 'request')} (${formatMoney(centsToDecimalString(counts.cents), currency)}); ${counts.failed} failed${taken}.`);
  if (counts.failed > 0) throw new CliError(`${counted(counts.failed, 'request')} of batch ${name} failed or could not be finished (their lines say why); nothing else was sent for them`, ExitCode.bulkPartial);
}
