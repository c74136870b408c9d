import type { Factory } from '../../factory.js';
import { sameRule } from '../../ledger/policy/judge.js';
import type { RuleChange, RuleSpec } from '../../ledger/policy/types.js';
import { checkRuleFlags, ruleOfFlags } from './rule-flags.js';
import { changeRules, refuseFourEyesAlone, rulesOf } from './shared.js';
import { ruleShown, ruleView } from './views.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { add } from './flags.js';

/** Its flag rules: one rule, read strictly, before anything is read or written. */
export function check(_args: ArgsOf<typeof add>, options: OptionsOf<typeof add>): void {
  checkRuleFlags(options);
}

/** The same rule with the same numbers: adding it again changes nothing. */
const identical = (a: RuleSpec, b: RuleSpec) =>
  sameRule(a, b) && a.amount_cents === b.amount_cents && a.expires_hours === b.expires_hours && a.confirm_up_to_cents === b.confirm_up_to_cents;

/**
 * `payctl policy add`: a rule that tightens the rules takes effect at once; one that loosens them
 * (it replaces a rule in force with a higher amount or limit, or lets agents act on a client's
 * confirmation) is a request another operator approves, and the rule in force stays until then.
 * A rule of the same operation, actor and kind (and --per) as one in force replaces it.
 */
export async function run(ctx: Factory, _args: ArgsOf<typeof add>, options: OptionsOf<typeof add>): Promise<void> {
  const spec = ruleOfFlags(options);
  const { book, ledger, actor } = await rulesOf(ctx);
  refuseFourEyesAlone(spec, ledger);
  const active = await book.rules();
  const replaced = active.find((rule) => sameRule(rule, spec));
  if (replaced && identical(replaced, spec)) {
    ctx.log.status(`Rule ${replaced.id} already says this; nothing changed.`);
    await ctx.out.render(ruleView(replaced, ledger), ruleShown);
    return;
  }
  const change: RuleChange = { action: 'add', rule: spec, ...(replaced ? { replaces: replaced.id } : {}) };
  await changeRules(ctx, { book, ledger, actor, active }, change);
}
