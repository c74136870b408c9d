import { UsageError, ValidationError } from '../../errors.js';
import type { RuleSpec } from '../../ledger/policy/types.js';
import { parseAmount } from '../../validate/index.js';
import type { OptionsOf } from '../verb.js';
import type { add } from './flags.js';

/** The most a request may wait for its approval: thirty days. */
const MAX_EXPIRES_HOURS = 720;

/**
 * One operator, as the ledger names who acts (platform/owner.ts): the OS user, `@`, the host name.
 * A user may be a bare uid (a container without a passwd entry); a host is dot-separated labels.
 */
const HOLDER = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*$/;

/** `--actor`: any (when not given), agent, script, or one operator as user@host. */
export function actorOfFlag(value: string | undefined): RuleSpec['actor'] {
  if (value === undefined) return 'any';
  if (value === 'any' || value === 'agent' || value === 'script') return value;
  if (HOLDER.test(value)) return value;
  throw new ValidationError(
    '--actor',
    `${JSON.stringify(value)} is not an actor; give any, agent, script, or one operator as user@host (as payctl ledger list names them in WHO)`,
  );
}

/** `--expires`: whole hours, 1 to 720. */
function expiresOfFlag(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_EXPIRES_HOURS) {
    throw new ValidationError('--expires', `${JSON.stringify(value)} is not a number of hours; give a whole number from 1 to ${MAX_EXPIRES_HOURS} (30 days)`);
  }
  return Number(value);
}

/**
 * The rule `policy add`'s flags describe, read strictly: exactly one of --above, --daily-limit and
 * --block; each other flag only with what it qualifies; amounts in reais, a decimal comma or point.
 * A flag payctl cannot read is an error naming it, never a default that lets more money through.
 * `--actor agent --confirm-at-client-up-to 50` alone is the contract's agent rule: up to R$ 50,00
 * the person at the client confirms, above it a person approves (an --above at that amount).
 */
export function ruleOfFlags(options: OptionsOf<typeof add>): RuleSpec {
  const { operation, ...rest } = readRule(options);
  if (operation === undefined) throw new UsageError('--operation required: the move the rule governs');
  return { operation, ...rest };
}

/**
 * The flag rules of `policy add`, checked before it runs: a missing --operation is asked for on a
 * terminal (or named, exit 2) once the others have passed.
 */
export function checkRuleFlags(options: OptionsOf<typeof add>): void {
  readRule(options);
}

/** The rule the flags describe, --operation left out when it was not given. */
function readRule(options: OptionsOf<typeof add>): Omit<RuleSpec, 'operation'> & { operation: RuleSpec['operation'] | undefined } {
  const actor = actorOfFlag(options.actor);
  const confirm = options.confirmAtClientUpTo;
  if (confirm !== undefined && actor !== 'agent') {
    throw new UsageError("--confirm-at-client-up-to goes with --actor agent: it lets the person at an agent's MCP client confirm instead of an approval");
  }
  const kinds = [options.above !== undefined && '--above', options.dailyLimit !== undefined && '--daily-limit', options.block === true && '--block'].filter(
    (given): given is string => given !== false,
  );
  if (kinds.length > 1) throw new UsageError(`give one of --above, --daily-limit and --block, not ${kinds.join(' and ')}`);
  if (kinds.length === 0 && confirm === undefined) throw new UsageError('give what the rule does: --above <amount>, --daily-limit <amount> or --block');
  if (options.block === true && confirm !== undefined) throw new UsageError('--confirm-at-client-up-to goes with --above or --daily-limit: a blocked move is never sent, confirmed or not');
  const kind: RuleSpec['kind'] = options.block === true ? 'block' : options.dailyLimit !== undefined ? 'daily_limit' : 'above';
  if (options.per !== undefined && kind !== 'daily_limit') throw new UsageError('--per goes with --daily-limit');
  if (options.per === 'session' && actor !== 'agent') throw new UsageError('--per session goes with --actor agent: a session is one payctl mcp server an agent works through');
  if (options.expires !== undefined && kind !== 'above') throw new UsageError('--expires goes with --above: how long a request waits for approval');
  const operation = options.operation;
  if (operation === 'policy') {
    if (kind !== 'block') throw new UsageError('--operation policy goes with --block: a change that loosens the rules waits for another operator already');
    if (actor === 'any') {
      throw new UsageError('--operation policy --block needs an --actor (script, or one operator as user@host): blocking rule changes for everyone would leave no way to change a rule again');
    }
  }
  const confirmCents = confirm === undefined ? null : parseAmount(confirm, '--confirm-at-client-up-to');
  const amount = options.above !== undefined ? parseAmount(options.above, '--above') : options.dailyLimit !== undefined ? parseAmount(options.dailyLimit, '--daily-limit') : kind === 'above' ? confirmCents : null;
  if (options.above !== undefined && confirmCents !== null && confirmCents > (amount ?? 0)) {
    throw new UsageError('--confirm-at-client-up-to is more than --above: above that amount a person approves, so the client may confirm up to it at most');
  }
  return {
    operation,
    actor,
    kind,
    amount_cents: amount,
    per: kind === 'daily_limit' ? (options.per ?? 'operator') : null,
    expires_hours: options.expires !== undefined ? expiresOfFlag(options.expires) : null,
    confirm_up_to_cents: confirmCents,
  };
}
