// Approval requests made as the money guard makes them, for the tests of `payctl approvals`: a
// refund's request with the words that send it and the digest of its body, and a request to
// remove a rule, on the ledger a home uses (its own SQLite one, or the team's with PAYCTL_LEDGER_URL).
import { createHash } from 'node:crypto';
import type { ApprovalRequest, Rule } from '../../src/ledger/policy/types.js';
import { SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { PERSON, addRule, withBook } from '../helpers/policy.js';

export interface RequestOptions {
  /** Who asked: this machine's user, a person unless said. */
  kind?: 'person' | 'agent' | 'script';
  /** Expires this long after now (default 24 h; less than 0: expired already). */
  expiresInMs?: number;
  /** The move in words, as the requester's command put it together (a buyer's name in it). */
  summary?: string;
}

/** A request for the refund of `cents` of `saleId` (all of it when null), as a rule that caught it records it. */
export function requestRefund(home: string, env: Record<string, string>, saleId: string, cents: number | null, options: RequestOptions = {}): Promise<ApprovalRequest> {
  const amount = cents === null ? [] : ['--amount-cents', String(cents)];
  const shown = cents === null ? 'all that remains' : `R$ ${(cents / 100).toFixed(2).replace('.', ',')}`;
  return withBook(
    home,
    (book, now) =>
      book.createRequest(
        {
          operation: 'refund',
          key: `transaction:${saleId}`,
          target: saleId,
          amount_cents: cents,
          currency: 'BRL',
          // sha256 of the body the refund sends, as the money guard ties an approval to it.
          digest: createHash('sha256').update(JSON.stringify({ on_behalf_of: SANDBOX_SELLER_ID, amount: cents })).digest('hex'),
          summary: options.summary ?? `Refund ${shown} of transaction ${saleId} (Visa ••••1111, Maria Silva)`,
          replay: ['transactions', 'refund', saleId, ...amount],
          expires_at: now + (options.expiresInMs ?? 86_400_000),
        },
        { ...PERSON, kind: options.kind ?? 'person' },
        now,
      ),
    env,
  );
}

/** A rule (refunds above R$ 500,00 by anyone need approval), in force at once, and a request by this machine's user to remove it. */
export async function requestRuleRemoval(home: string, env: Record<string, string>): Promise<{ rule: string; request: ApprovalRequest }> {
  const rule = await addRule(home, { kind: 'above', amount_cents: 50_000 }, env);
  const request = await withBook(
    home,
    (book, now) => book.createRequest({ operation: 'policy', summary: `Remove rule ${rule} (refunds above R$ 500,00 by anyone need approval)`, change: { action: 'remove', rule }, expires_at: now + 86_400_000 }, PERSON, now),
    env,
  );
  return { rule, request };
}

/** The rules of the ledger a home uses, removed ones too. */
export function rulesOf(home: string, env: Record<string, string>): Promise<Rule[]> {
  return withBook(home, (book) => book.rules({ removed: true }), env);
}
