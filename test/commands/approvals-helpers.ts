// Approval requests made as the money guard makes them, for the tests of `payctl approvals`: the
// book of the ledger a home uses (its own SQLite one, or the team's with PAYCTL_LEDGER_URL), and
// a refund's request with the words that send it.
import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { Factory } from '../../src/factory.js';
import { parseGlobals } from '../../src/globals.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import type { ApprovalRequest } from '../../src/ledger/policy/types.js';
import { currentOwner } from '../../src/platform/owner.js';
import { SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { testEnv } from '../helpers/run.js';

/** The ledger a home's commands use, and a close for it. */
export async function openBook(home: string, env: Record<string, string> = {}): Promise<{ ledger: Ledger; close: () => Promise<void> }> {
  const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, env: testEnv(home, env) };
  const factory = new Factory(io, parseGlobals({}));
  await factory.service.requireApiKey();
  const { ledger } = await factory.moneyGuard();
  return { ledger, close: () => factory.close() };
}

export interface RequestOptions {
  /** Who asked: this machine's user (a person) unless said. */
  kind?: 'person' | 'agent' | 'script';
  /** Expires this long after now (default 24 h). */
  expiresInMs?: number;
  batch?: { id: string; name: string; row: number };
  /** The move in words, as the requester's command put it together (a buyer's name in it). */
  summary?: string;
}

/** A request for the refund of `cents` of `saleId` (all of it when null), as a rule that caught it records it. */
export async function requestRefund(home: string, env: Record<string, string>, saleId: string, cents: number | null, options: RequestOptions = {}): Promise<ApprovalRequest> {
  const { ledger, close } = await openBook(home, env);
  try {
    const now = ledger.now();
    const amount = cents === null ? [] : ['--amount-cents', String(cents)];
    return await ledger.policy.createRequest(
      {
        operation: 'refund',
        key: `transaction:${saleId}`,
        target: saleId,
        amount_cents: cents,
        currency: 'BRL',
        // sha256 of the body the refund sends, as the money guard ties an approval to it.
        digest: createHash('sha256').update(JSON.stringify({ on_behalf_of: SANDBOX_SELLER_ID, amount: cents })).digest('hex'),
        summary: options.summary ?? `Refund ${cents === null ? 'all that remains' : `R$ ${(cents / 100).toFixed(2).replace('.', ',')}`} of transaction ${saleId} (Visa ••••1111, Maria Silva)`,
        replay: ['transactions', 'refund', saleId, ...amount],
        batch: options.batch?.id ?? null,
        batch_name: options.batch?.name ?? null,
        row: options.batch?.row ?? null,
        expires_at: now + (options.expiresInMs ?? 86_400_000),
      },
      { holder: currentOwner().holder, kind: options.kind ?? 'person' },
      now,
    );
  } finally {
    await close();
  }
}

/** A rule (refunds above R$ 500,00 by anyone need approval), in force at once, and a request by this machine's user to remove it. */
export async function requestRuleRemoval(home: string, env: Record<string, string>): Promise<{ rule: string; request: ApprovalRequest }> {
  const { ledger, close } = await openBook(home, env);
  const by = { holder: currentOwner().holder, kind: 'person' as const };
  try {
    const rule = await ledger.policy.applyChange(
      { action: 'add', rule: { operation: 'refund', actor: 'any', kind: 'above', amount_cents: 50_000, per: null, expires_hours: null, confirm_up_to_cents: null } },
      by,
      ledger.now(),
    );
    if (!rule) throw new Error('the rule was not added');
    const request = await ledger.policy.createRequest({ operation: 'policy', summary: `Remove rule ${rule.id} (refunds above R$ 500,00 by anyone need approval)`, change: { action: 'remove', rule: rule.id }, expires_at: ledger.now() + 86_400_000 }, by, ledger.now());
    return { rule: rule.id, request };
  } finally {
    await close();
  }
}

/** The rules of the ledger a home uses, removed ones too. */
export async function rulesOf(home: string, env: Record<string, string>) {
  const { ledger, close } = await openBook(home, env);
  try {
    return await ledger.policy.rules({ removed: true });
  } finally {
    await close();
  }
}
