import { withoutControls } from '../../platform/control-chars.js';
import { counted, singular } from '../../platform/plural.js';
import { formatMoney } from '../../output/format.js';
import { describeCard } from '../cards/shared.js';
import type { ToolSpec } from './tool-spec.js';

// The line of a tool's result a person reads (the agent shows it, or quotes it): said with the
// formatters the command line's own summaries use (money as `R$ 30,00`, a card as `MasterCard
// ••••4444, Joana Pereira`), every value from the service cleaned of control characters.

/** What a lost answer is told as: the contract's words, exactly. */
export const UNKNOWN_TEXT = 'unknown — do not retry; payctl will settle it';

/** When and by whom the ledger says a move was made, and its amount (a decimal string), when it says. */
export interface DoneBy {
  at: string;
  by: string;
  amount: string | null;
}

/** What each money tool's move is called once made. */
const DONE_WORDS: Readonly<Record<string, string>> = {
  'transactions refund': 'refunded',
  'transactions capture': 'captured',
  'transactions create': 'charged',
  'boletos cancel': 'cancellation requested',
  'invoices refund': 'refunded',
  'subscriptions remove': 'cancelled',
};

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? withoutControls(value) : typeof value === 'number' ? String(value) : undefined);

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A sale's payer as the guard's summaries say it: its card (`MasterCard ••••4444, Joana Pereira`), else its payment type. */
export function payerOf(sale: Record<string, unknown>): string | undefined {
  const method = sale.payment_method;
  if (isRecord(method) && (method.resource === 'card' || method.card_brand)) return withoutControls(describeCard(method));
  return text(sale.payment_type);
}

function money(amount: unknown, currency: unknown): string | undefined {
  const value = text(amount);
  return value === undefined ? undefined : formatMoney(value, text(currency));
}

/** A sale in a few words: `transaction 7f…: R$ 100,00, succeeded (MasterCard ••••4444, Joana Pereira)`. */
function saleLine(sale: Record<string, unknown>): string {
  const amount = money(sale.original_amount ?? sale.amount, sale.currency);
  const payer = payerOf(sale);
  return `transaction ${text(sale.id) ?? '?'}${amount ? `: ${amount}` : ''}${text(sale.status) ? `, ${text(sale.status)}` : ''}${payer ? ` (${payer})` : ''}`;
}

/**
 * A money move as a person reads it: `R$ 30,00 refunded of R$ 100,00 (MasterCard ••••4444, Joana
 * Pereira); transaction … is now partial_refunded`; one made before says when and by whom.
 */
export function describeMove(tool: ToolSpec, printed: Record<string, unknown> | undefined, done: DoneBy | undefined, already = false): string {
  const word = DONE_WORDS[tool.verb] ?? 'done';
  const currency = printed?.currency;
  const moved = money(done?.amount, currency);
  const whole = printed ? money(printed.original_amount ?? printed.amount, currency) : undefined;
  const payer = printed ? payerOf(printed) : undefined;
  const what = moved && whole && moved !== whole ? `${moved} ${word} of ${whole}` : moved || whole ? `${moved ?? whole} ${word}` : `${word[0]?.toUpperCase()}${word.slice(1)}`;
  // What it was done on, and its state now: a sale, an invoice, or (a boleto's cancellation) the sale it names.
  const id = printed && (text(printed.id) ?? text(printed.transaction_id));
  const kind = printed && (text(printed.id) ? (text(printed.resource) ?? 'transaction') : 'transaction');
  const state = printed && id ? `; ${kind} ${id} is ${text(printed.status) ?? 'as shown'}` : '';
  const line = `${what}${payer ? ` (${payer})` : ''}${state}`;
  if (!already) return line;
  const when = done ? ` on ${done.at} by ${done.by}` : ' before (its history shows it)';
  return `Already done: ${line}; payctl made this move${when}. Nothing was sent now: calling again returns this same answer`;
}

/** The line of a money tool's envelope. */
export function moneyText(tool: string, body: { outcome: string; message: string; request?: { id: string; summary: string; expires_at: string } }): string {
  if (body.outcome === 'waiting_for_approval' && body.request) {
    const { id, summary, expires_at } = body.request;
    return `Waiting for approval: request ${id}${summary ? ` (${summary})` : ''}, until ${expires_at}; nothing was sent. A person approves it with \`payctl approvals approve ${id}\`; poll approvals_status with request_id ${id} (calling ${tool} again returns this same request).`;
  }
  return body.message;
}

/** What the items of lists that are not of the service's resources are. */
const ITEM_NOUNS: Readonly<Record<string, string>> = { 'ledger list': 'money move', 'approvals list': 'request' };

/** What one item of a reading tool's list is: its `resource` (`transaction`), else what its verb lists. */
function itemNoun(tool: ToolSpec, items: unknown[]): string {
  const first = items.find(isRecord);
  const resource = first && text(first.resource);
  if (resource) return resource.replace(/_/g, ' ');
  const words = tool.verb.split(' ');
  return ITEM_NOUNS[tool.verb] ?? singular((words.length > 2 ? words[1] : words[0]) ?? 'item').replace(/-/g, ' ');
}

/** A sum of money an object holds, as a person reads it (a balance's, a transfer's). */
function amountOf(structured: Record<string, unknown>): string | undefined {
  for (const key of ['current_balance', 'amount']) {
    const shown = money(structured[key], structured.currency);
    if (shown) return shown;
  }
  return undefined;
}

/** A reading tool's result in a line: `20 transactions; more with cursor (next_cursor)`, a sale, a transfer explained. */
export function describeRead(tool: ToolSpec, structured: Record<string, unknown>): string {
  if (Array.isArray(structured.groups)) return `${counted(structured.groups.length, 'group')}, summed (group_by)`;
  if (typeof structured.transfer === 'string' && typeof structured.matched === 'boolean') {
    const total = money(structured.amount, 'BRL');
    const count = Array.isArray(structured.items) ? structured.items.length : 0;
    return `transfer ${text(structured.transfer)} of ${total ?? '?'}: ${counted(count, 'receivable')}; ${structured.matched ? 'it adds up' : `it does not add up (a difference of ${money(structured.difference, 'BRL') ?? '?'})`}`;
  }
  if (Array.isArray(structured.transfers) && typeof structured.from === 'string') {
    const lines = structured.transfers.filter(isRecord);
    const off = lines.filter((line) => line.result !== 'matched').length;
    return `${text(structured.from)} to ${text(structured.to)}: ${counted(lines.length, 'transfer')}; ${off === 0 ? 'every one adds up' : `${off} do not add up`}`;
  }
  if (typeof structured.integrity === 'string') return `the ledger (${text(structured.kind) ?? '?'}): integrity ${text(structured.integrity)}, ${counted(Number(structured.open_outcomes ?? 0), 'open outcome')}`;
  if (Array.isArray(structured.items)) {
    const items = structured.items;
    const one = itemNoun(tool, items);
    const first = items.slice(0, 3).filter(isRecord);
    const sales = one === 'transaction' && first.length > 0 ? `: ${first.map(saleLine).join('; ')}${items.length > first.length ? '; …' : ''}` : '';
    const more = typeof structured.next_cursor === 'string' ? `; more: call ${tool.name} again with cursor set to next_cursor` : items.length === 0 ? '' : '; that is all';
    return `${counted(items.length, one, one.replace(/([^aeiou])y$/, '$1ie').concat('s'))}${sales}${more}`;
  }
  if (structured.resource === 'transaction' || (tool.verb.startsWith('transactions ') && typeof structured.id === 'string' && 'payment_type' in structured)) return saleLine(structured);
  const id = text(structured.id) ?? text(structured.account);
  const status = text(structured.status) ?? text(structured.state);
  const kind = (text(structured.resource) ?? singular(tool.verb.split(' ')[0] ?? 'item')).replace(/_/g, ' ');
  const name = [text(structured.first_name), text(structured.last_name)].filter(Boolean).join(' ') || text(structured.business_name) || text(structured.name);
  const amount = amountOf(structured);
  return `${kind}${id ? ` ${id}` : ''}${name ? ` (${name})` : ''}${amount ? `: ${amount}` : ''}${status ? `${amount ? ', ' : ': '}${status}` : ''}`;
}
