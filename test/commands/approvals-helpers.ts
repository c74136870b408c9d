// Approval requests made as the money guard makes them, for the tests of `payctl approvals`: the
// book of the ledger a home uses (its own SQLite one, or the team's with PAYCTL_LEDGER_URL), and
// a refund's request with the words that send it.
import { PassThrough } from 'node:stream';
import { Factory } from '../../src/factory.js';
import { parseGlobals } from '../../src/globals.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import type { ApprovalRequest } from '../../src/ledger/policy/types.js';
import { currentOwner } from '../../src/platform/owner.js';
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
        digest: 'test',
        summary: `Refund ${cents === null ? 'all that remains' : `R$ ${(cents / 100).toFixed(2).replace('.', ',')}`} of transaction ${saleId} (Visa ••••1111, Maria Silva)`,
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
