import type { Factory } from '../../factory.js';
import type { Operation } from '../../provider/endpoints.js';
import { AGENT_DEFAULT, describeRule } from '../../ledger/policy/judge.js';
import type { ApprovalRequest, PolicyOperation } from '../../ledger/policy/types.js';
import type { ObjectView } from '../../output/object-view.js';
import { bookOf, findRequest, requestIdOf, requestView, said, who } from './shared.js';
import type { ArgsOf } from '../verb.js';
import type { show } from './flags.js';

/** What a request's target is, to read it as it is now: a sale, an invoice, a boleto, a subscription. */
const READ: Partial<Record<PolicyOperation, Operation>> = {
  refund: 'transactions.get',
  capture: 'transactions.get',
  'split-change': 'transactions.get',
  'invoice-refund': 'invoices.get',
  'invoice-approve': 'invoices.get',
  'boleto-cancel': 'boletos.get',
  'subscription-cancel': 'subscriptions.get',
};

/** The sale (or invoice, boleto, subscription) as the service has it now: its status and amount; null when there is none to read. */
async function targetNow(ctx: Factory, request: ApprovalRequest): Promise<Record<string, unknown> | null> {
  const operation = READ[request.operation];
  if (operation === undefined || request.target === null) return null;
  try {
    const api = await ctx.api();
    const now = (await api.call<Record<string, unknown>>(operation, { params: { id: request.target } })) ?? {};
    return { id: request.target, status: now.status ?? null, amount: now.amount ?? null, currency: now.currency ?? request.currency };
  } catch (err) {
    ctx.log.warn(`could not read ${request.target} from the service (${(err as Error).message}); showing the request alone`);
    return { id: request.target, status: null, error: (err as Error).message };
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** A request for a person to read: the move, the rule, who asked; what became of it; the sale now; what approving sends. */
const REQUEST_VIEW: ObjectView = {
  noun: 'Approval request',
  id: 'id',
  status: 'state',
  summary: [
    { label: 'Move', at: 'summary' },
    { label: 'Amount', at: 'amount', kind: 'money' },
    { label: 'Rule', at: 'rule_text' },
    {
      label: 'Asked by',
      at: (r) => {
        const kind = text(r.requester_kind);
        const asker = who(text(r.requester) ?? null, text(r.requester_name));
        if (kind !== 'agent') return `${asker}, a ${kind ?? 'person'}`;
        const agent = text(r.requester_agent);
        return `${asker}, an AI agent${agent ? ` (${said(agent)})` : ''}`;
      },
    },
    { label: 'Asked', at: 'created_at', kind: 'date' },
    { label: 'Expires', at: 'expires_at', kind: 'date' },
    { label: 'Batch', at: (r) => (r.batch === null ? undefined : `${text(r.batch_name) ?? text(r.batch)}, row ${String(r.row)}`) },
  ],
  sections: [
    {
      title: 'Decided',
      fields: [
        { label: 'By', at: (r) => (r.decided_by === null ? undefined : who(text(r.decided_by) ?? null, text(r.decided_by_name))) },
        { label: 'At', at: 'decided_at', kind: 'date' },
        { label: 'Reason', at: 'reason' },
        { label: 'Ledger intent', at: 'intent_id' },
      ],
    },
    {
      title: 'As it is now',
      fields: [
        { label: 'Id', at: 'sale_now.id', kind: 'id' },
        { label: 'Status', at: 'sale_now.status', kind: 'status' },
        { label: 'Amount', at: 'sale_now.amount', kind: 'money' },
        { label: 'Not read', at: 'sale_now.error' },
      ],
    },
    { title: 'Approving sends', fields: [{ label: 'Command', at: 'command' }, { label: 'Body digest', at: 'digest' }] },
  ],
};

/**
 * `payctl approvals show <id>`: what an approver needs to judge a request: the move in full (as a
 * person reads it, and the command that sends it), the rule that caught it in words, who asked
 * and how, and the sale as it is now.
 */
export async function run(ctx: Factory, args: ArgsOf<typeof show>): Promise<void> {
  const id = requestIdOf(args[0]);
  const { ledger, book } = await bookOf(ctx);
  const request = await findRequest(book, ledger, id);
  const rule = request.rule_id === null ? undefined : await book.rule(request.rule_id);
  const view = {
    ...requestView(request, ledger),
    // An agent's move no rule sent here waits for a person all the same: that is said instead.
    rule_text: rule ? describeRule(rule) : request.requester_kind === 'agent' && request.operation !== 'policy' ? AGENT_DEFAULT : null,
    sale_now: await targetNow(ctx, request),
  };
  await ctx.out.show(view, REQUEST_VIEW);
}
