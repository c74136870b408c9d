import type { Factory } from '../../factory.js';
import { operatorLabel, withAgent } from '../../ledger/actor.js';
import { LedgerLostError } from '../../ledger/errors.js';
import type { Ledger } from '../../ledger/ledger.js';
import { isoTime } from '../../ledger/time.js';
import type { Intent, Lock } from '../../ledger/types.js';
import { AMOUNT_COLUMN } from '../../output/columns.js';
import type { Column } from '../../output/render-options.js';
import { withoutControls } from '../../platform/control-chars.js';
import { localDateTime } from '../../time/zone.js';
import { centsToDecimalString } from '../../validate/index.js';

/** The ledger of the current profile's account, for reading and steering it. */
export async function ledgerOf(ctx: Factory): Promise<Ledger> {
  await ctx.service.requireApiKey();
  return (await ctx.moneyGuard()).ledger;
}

/**
 * The ledger, for reading only: one that is lost (deleted, emptied, replaced) stops money moves,
 * not reads. Its loss is said first, then `work` gets what is there now (undefined: nothing).
 */
export async function readLedger(ctx: Factory, work: (ledger: Ledger | undefined) => Promise<void>): Promise<void> {
  let ledger: Ledger | undefined;
  try {
    ledger = await ledgerOf(ctx);
  } catch (err) {
    if (!(err instanceof LedgerLostError)) throw err;
    ctx.log.warn(err.forReads);
    const [{ readLostLedger }, { ledgerPlace }] = await Promise.all([import('../../ledger/open.js'), import('../../ledger-place.js')]);
    const { place, account, scrub } = await ledgerPlace(ctx.config, ctx.secrets);
    const lost = await readLostLedger(place, account, scrub);
    try {
      return await work(lost);
    } finally {
      await lost?.close();
    }
  }
  await work(ledger);
}

const VERBS: Record<string, string> = {
  'transactions.void': 'refund',
  'transactions.capture': 'capture',
  'transactions.create': 'create',
  'boletos.cancel': 'boleto cancel',
  'invoices.approve': 'invoice approve',
  'invoices.refund': 'invoice refund',
  'transactions.splits.add': 'split add',
  'transactions.splits.remove': 'split remove',
  'cards.associate': 'card save',
};

/** An intent as `ledger list` and `show` print it: times as ISO, amounts as decimal strings. */
export function intentView(intent: Intent, ledger: Ledger): Record<string, unknown> {
  return {
    id: intent.id,
    created_at: isoTime(ledger.local(intent.created_at)),
    holder: intent.holder,
    operator_name: intent.operator_name,
    pid: intent.pid,
    agent: intent.agent,
    session: intent.session,
    operation: intent.operation,
    action: VERBS[intent.operation] ?? intent.operation,
    key: intent.key,
    target: intent.target,
    amount: intent.amount_cents === null ? null : centsToDecimalString(intent.amount_cents),
    state: intent.state,
    batch: intent.batch_name,
    row: intent.row,
    proof: intent.proof,
    settle_until: intent.settle_until === null ? null : isoTime(ledger.local(intent.settle_until)),
    detail: intent.detail,
  };
}

/**
 * The table's columns: when (a date and a time, the zone named under the table), what, on what, how
 * much and what became of it are never cut; who and the batch give way first on a narrow terminal.
 */
export const INTENT_COLUMNS: Column[] = [
  { key: 'created_at', header: 'WHEN', kind: 'date' },
  { key: 'action', header: 'WHAT', kind: 'id' },
  { key: 'target', header: 'ON', kind: 'id' },
  AMOUNT_COLUMN,
  { key: 'state', header: 'STATE', kind: 'status' },
  { key: 'who', header: 'WHO', kind: 'text' },
  { key: 'batch', header: 'BATCH', kind: 'text' },
];

/**
 * A table's row of an intent: who acted as people read it, `Ana Souza (ana@caixa-2)`, `ana@caixa-2,
 * agent claude-code` (JSON and CSV keep holder, operator_name and agent apart).
 */
export function intentTableRow(view: Record<string, unknown>): Record<string, unknown> {
  const who = operatorLabel({ holder: String(view.holder), name: view.operator_name as string | null });
  return { ...view, who: typeof view.agent === 'string' ? withAgent(who, withoutControls(view.agent)) : who };
}

/** `ana@caixa-2, pid 4242, since 2026-11-28 17:57:03 UTC−03:00, lease until 2026-11-28 17:57:43 UTC−03:00` */
export function describeLock(lock: Lock, ledger: Ledger): string {
  return `${lock.holder}, pid ${lock.pid}, since ${localDateTime(ledger.local(lock.since))}, lease until ${localDateTime(ledger.local(lock.expires_at))}`;
}

export function lockView(lock: Lock, ledger: Ledger): Record<string, unknown> {
  return { key: lock.key, holder: lock.holder, pid: lock.pid, since: isoTime(ledger.local(lock.since)), lease_until: isoTime(ledger.local(lock.expires_at)) };
}
