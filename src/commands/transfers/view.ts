// `transfers get` and `receivables get` on a terminal: read like a transaction's view (what,
// how much, when, to whom), the rest in sections. See src/output/object-view.ts.
import { decimalCents } from '../../output/totals.js';
import { formatMoney } from '../../output/format.js';
import { AMOUNT, CREATED, DESCRIPTION, SELLER, TRANSACTION, resourceView } from '../../output/resource-view.js';
import { counted } from '../../platform/plural.js';
import { centsToDecimalString } from '../../validate/index.js';

type Item = Record<string, unknown>;
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** "001 · 1234 · 56789-0 · LOJA SANDBOX LTDA": bank, branch, account and holder. */
function bankAccount(item: Item): string | undefined {
  const bank = item.bank_account as Item | null | undefined;
  if (!bank || typeof bank !== 'object') return undefined;
  const parts = [text(bank.bank_code), text(bank.routing_number), text(bank.account_number), text(bank.holder_name)].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : undefined;
}

/** What the transfer paid: "2 receivables of 2 sales". */
function paid(item: Item): string | undefined {
  const receivables = Array.isArray(item.receivables) ? item.receivables.length : undefined;
  const sales = Array.isArray(item.transactions) ? new Set(item.transactions).size : undefined;
  if (receivables === undefined) return undefined;
  return `${counted(receivables, 'receivable')}${sales !== undefined ? ` of ${counted(sales, 'sale')}` : ''}`;
}

export const TRANSFER_VIEW = resourceView('Transfer', 'id', [
  AMOUNT,
  { label: 'Fee', at: 'fees', kind: 'money' },
  { label: 'Date', at: 'transfer_date', kind: 'date' },
  SELLER,
  { label: 'To', at: bankAccount },
  { label: 'Paid', at: paid },
  { label: 'Explained by', at: (item) => (typeof item.id === 'string' ? `payctl transfers explain ${item.id}` : undefined) },
  DESCRIPTION,
  CREATED,
], []);

/** Gross less net, when both are given. */
function fee(item: Item): string | undefined {
  const gross = decimalCents(item.gross_amount);
  const net = decimalCents(item.amount);
  return gross === undefined || net === undefined ? undefined : formatMoney(centsToDecimalString(gross - net));
}

export const RECEIVABLE_VIEW = resourceView('Receivable', 'id', [
  { label: 'Net', at: 'amount', kind: 'money' },
  { label: 'Gross', at: 'gross_amount', kind: 'money' },
  { label: 'Fee', at: fee },
  { label: 'Installment', at: 'installment' },
  { label: 'Expected', at: 'expected_on', kind: 'date' },
  { label: 'Paid', at: 'paid_at', kind: 'date' },
  TRANSACTION,
  { label: 'Transfer', at: 'transfer', kind: 'id' },
  { label: 'Recipient', at: 'recipient', kind: 'id', names: 'seller' },
  CREATED,
], []);
