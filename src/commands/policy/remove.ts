import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { changeRules, rulesOf } from './shared.js';
import type { ArgsOf } from '../verb.js';
import type { remove } from './flags.js';

const RULE_ID = /^rule_[0-9a-z]+$/;

/** Its flag rules: a rule's id, as policy list shows it. */
export function check(args: ArgsOf<typeof remove>): void {
  const id = args[0];
  if (id !== undefined && !RULE_ID.test(id.trim())) throw new UsageError(`<rule-id>: ${JSON.stringify(id)} is not a rule's id; give one as payctl policy list shows it (rule_…)`);
}

/**
 * `payctl policy remove <rule-id>`: removing a rule loosens the rules, so it is a request another
 * operator approves; the rule stays in force until then.
 */
export async function run(ctx: Factory, args: ArgsOf<typeof remove>): Promise<void> {
  check(args);
  const id = args[0].trim();
  const { book, ledger, actor } = await rulesOf(ctx);
  const rule = await book.rule(id);
  if (!rule) throw new UsageError(`the ledger ${ledger.where} has no rule ${id}; payctl policy list --all shows its rules`);
  if (rule.state === 'removed') {
    ctx.log.status(`Rule ${id} was already removed; nothing changed.`);
    return;
  }
  await changeRules(ctx, { book, ledger, actor, active: await book.rules() }, { action: 'remove', rule: id });
}
