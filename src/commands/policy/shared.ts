import type { Factory } from '../../factory.js';
import { ApprovalPendingError, PolicyRefusedError, UsageError } from '../../errors.js';
import { describeActor, type Actor } from '../../ledger/actor.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { PolicyBook } from '../../ledger/policy/book.js';
import { DEFAULT_EXPIRY_HOURS, describeRule, judgeChange, judgeMove } from '../../ledger/policy/judge.js';
import type { ApprovalRequest, Rule, RuleChange, RuleSpec } from '../../ledger/policy/types.js';
import { ledgerOf } from '../ledger/shared.js';
import { requestShown } from '../shared/approval.js';
import { ruleShown, ruleView } from './views.js';

/**
 * The most pending requests read to find the changes of the rules among them (the book reads
 * requests of every operation): a bound far above what a team leaves waiting.
 */
const PENDING_READ = 10_000;

/** The changes of the rules that wait for approval, newest first. */
export async function pendingChanges(book: PolicyBook, now: number): Promise<ApprovalRequest[]> {
  return (await book.requests({ states: ['pending'], limit: PENDING_READ }, now)).filter((request) => request.operation === 'policy');
}

/** What a rule change needs: the account's rules, the ledger they are kept in, and who changes them. */
export interface RulesAt {
  book: PolicyBook;
  ledger: Ledger;
  actor: Actor;
}

/**
 * The rules of the current profile's account, and who reads or changes them. An agent reads them,
 * but never changes them, whatever it asks (exit 4): it is refused before the ledger is opened.
 */
export async function rulesOf(ctx: Factory, { reading = false } = {}): Promise<RulesAt> {
  const actor = await ctx.actor();
  if (actor.kind === 'agent' && !reading) {
    throw new PolicyRefusedError(`an agent may not change the team's rules (${actor.signal}); a person sets them with payctl policy add and remove. Nothing was changed`);
  }
  const ledger = await ledgerOf(ctx);
  return { book: ledger.policy, ledger, actor };
}

/**
 * Four eyes need two people on one ledger: a rule that names an operator, or that waits for a
 * second person (--above), is refused on a machine's own SQLite ledger, where nobody else could
 * ever approve. A rule for agents is not: a person at a terminal of the same machine approves an
 * agent's request.
 */
export function refuseFourEyesAlone(spec: RuleSpec, ledger: Ledger): void {
  if (ledger.kind !== 'sqlite' || spec.actor === 'agent') return;
  const why = spec.actor.includes('@') ? `a rule for one operator (${spec.actor})` : spec.kind === 'above' ? 'a rule that waits for a second person (--above)' : undefined;
  if (why === undefined) return;
  throw new UsageError(
    `${why} needs a ledger the team shares: four eyes need two people on one ledger, and ${ledger.where} is this machine's own. Share one first (payctl config set ledger_url postgres://…, on every operator's machine); on this ledger, daily limits, blocks and rules for agents work. Nothing was changed`,
  );
}

/** The rule a change replaces or removes, when there is one. */
export function ruleChangedBy(change: RuleChange): string | undefined {
  return change.action === 'remove' ? change.rule : change.replaces;
}

/** A rule by its id, and in words when it is known. */
function named(id: string, rules: readonly Rule[]): string {
  const rule = rules.find((r) => r.id === id);
  return rule ? `rule ${id} (${describeRule(rule)})` : `rule ${id}`;
}

/** A rule change in words, as a request records it and `approvals show` gives it. */
export function changeInWords(change: RuleChange, rules: readonly Rule[]): string {
  if (change.action === 'remove') return `Remove ${named(change.rule, rules)}`;
  return `Add the rule "${describeRule(change.rule)}"${change.replaces === undefined ? '' : `, replacing ${named(change.replaces, rules)}`}`;
}

/** The same change, already waiting for approval: asked again, it is named rather than asked twice. */
async function waitingFor(book: PolicyBook, change: RuleChange, now: number): Promise<ApprovalRequest | undefined> {
  const same = JSON.stringify(change);
  return (await pendingChanges(book, now)).find((request) => JSON.stringify(request.change) === same);
}

/**
 * Requests to change a rule that a tightening change has just replaced: they no longer stand (once
 * approved, one would add its rule beside the new one), so they are denied, saying why.
 */
async function denyOutdated(book: PolicyBook, replaced: string, by: Rule, actor: Actor, now: number): Promise<string[]> {
  const outdated = (await pendingChanges(book, now)).filter((request) => request.change !== null && ruleChangedBy(request.change) === replaced);
  for (const request of outdated) await book.deny(request.id, actor, `rule ${replaced} was replaced meanwhile by rule ${by.id} (${describeRule(by)}); ask again if it should change`, now);
  return outdated.map((request) => request.id);
}

/**
 * Makes a change to the rules, as its kind allows: a change that tightens them is written at once;
 * one that loosens them (once any rule exists) is a request of operation `policy`, which another
 * operator approves (`payctl approvals approve`), exit 13; the rules in force stay as they are
 * until then. A change is itself a move of operation `policy`: a rule that blocks it for this
 * actor refuses it (exit 4).
 */
export async function changeRules(ctx: Factory, at: RulesAt & { active: readonly Rule[] }, change: RuleChange): Promise<void> {
  const { book, ledger, actor, active } = at;
  const judged = judgeMove(active, { operation: 'policy', amountCents: null }, actor);
  if (judged.kind === 'blocked') throw new PolicyRefusedError(`not permitted by the team's policy: rule ${judged.rule.id} (${describeRule(judged.rule)}); nothing was changed`);
  const now = ledger.now();
  const touched = ruleChangedBy(change);
  const tightens = judgeChange(active, change) === 'tightens';
  // --dry-run promises that nothing changes; a rule change sends no request, so it stops here itself.
  if (ctx.globals.dryRun) {
    ctx.log.status(`dry run: ${changeInWords(change, active)} would ${tightens ? 'be in force at once' : "wait for another operator's approval (exit 13)"}; nothing was changed`);
    return;
  }
  if (tightens) {
    const rule = await book.applyChange(change, actor, now);
    if (!rule) return;
    const outdated = touched === undefined ? [] : await denyOutdated(book, touched, rule, actor, now);
    ctx.log.status(
      `Rule ${rule.id} is in force now, set by ${describeActor(actor)}: ${describeRule(rule)}${touched === undefined ? '' : `. It replaces ${named(touched, active)}`}${
        outdated.length > 0 ? `; ${outdated.join(', ')}, which asked to change that rule, ${outdated.length === 1 ? 'was' : 'were'} denied` : ''
      }.`,
    );
    await ctx.out.render(ruleView(rule, ledger), ruleShown);
    return;
  }
  if (ledger.kind === 'sqlite' && actor.kind === 'person') return loosenAlone(ctx, at, change, touched, now);
  const waiting = await waitingFor(book, change, now);
  const request =
    waiting ??
    (await book.createRequest({ operation: 'policy', change, summary: changeInWords(change, active), rule_id: touched ?? null, expires_at: now + DEFAULT_EXPIRY_HOURS * 3_600_000 }, actor, now));
  // For scripts, the request itself (its id to wait on), as a money move a rule held prints it.
  if ((await ctx.out.outputFormat()) !== 'table') await ctx.out.render(requestShown(request, ledger));
  const asked = change.action === 'remove' ? `removing ${named(change.rule, active)}` : `the rule "${describeRule(change.rule)}"${touched === undefined ? '' : ` in place of ${named(touched, active)}`}`;
  throw new ApprovalPendingError(
    `${asked} loosens the team's rules, so another operator approves it: it ${waiting ? 'already waits' : 'waits'} as request ${request.id} (payctl approvals show ${request.id}); ${
      touched === undefined ? 'the rules in force stay as they are' : `rule ${touched} stays in force`
    } until then${ledger.kind === 'sqlite' ? `. On this machine's own ledger (${ledger.where}) only the person at its terminal may loosen the rules: run it there, not from a script or an agent` : ''}`,
  );
}

/**
 * On a machine's own ledger there is no second person to approve: its rules (daily limits, blocks,
 * rules for agents) hold scripts and agents back, and only the person at its terminal loosens them,
 * asked first (--yes answers). A script never gets here (it is not a person), nor an agent.
 */
async function loosenAlone(ctx: Factory, at: RulesAt & { active: readonly Rule[] }, change: RuleChange, touched: string | undefined, now: number): Promise<void> {
  const { book, ledger, actor, active } = at;
  await ctx.prompts.confirm(
    `${changeInWords(change, active)} loosens the rules. On this machine's own ledger nobody else can approve it, so it takes effect when you confirm. Loosen them?`,
    'loosen the rules',
  );
  const rule = await book.applyChange(change, actor, now);
  const outdated = touched !== undefined && rule ? await denyOutdated(book, touched, rule, actor, now) : [];
  const what = rule ? `Rule ${rule.id} is in force now: ${describeRule(rule)}${touched === undefined ? '' : `. It replaces ${named(touched, active)}`}` : `${named(touched ?? '', active)} is removed`;
  ctx.log.status(`${what}, by ${describeActor(actor)} alone (this machine's own ledger)${outdated.length > 0 ? `; ${outdated.join(', ')} denied` : ''}.`);
  if (rule) await ctx.out.render(ruleView(rule, ledger), ruleShown);
}
