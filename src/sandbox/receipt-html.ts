import { formatCNPJ } from '@brazilian-utils/brazilian-utils';
import { decimalToCents } from './money.js';
import type { Receipt } from './types.js';

// The provider's printable receipt: one self-contained HTML page (inline style, no scripts, no
// external resources), in Portuguese like the real one, so it renders the same offline.

const PAYMENT_LABELS: Record<string, string> = { credit: 'Cartão de crédito', boleto: 'Boleto', bolepix: 'Boleto com PIX', pix: 'PIX' };

/** Said on the page only when the receipt does not stand for money received. */
const STATUS_LABELS: Partial<Record<Receipt['status'], string>> = { pending: 'Aguardando pagamento', canceled: 'Cancelado' };

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** "1234.5" → "R$ 1.234,50", the Brazilian way, from integer cents. */
export function formatBrl(decimal: string): string {
  const cents = decimalToCents(decimal);
  const abs = Math.abs(cents);
  const reais = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${cents < 0 ? '-' : ''}R$ ${reais},${String(abs % 100).padStart(2, '0')}`;
}

/** dd/mm/yyyy hh:mm, in UTC like every time the sandbox shows, and saying so. */
function formatDate(iso: string): string {
  const [date = '', time = ''] = iso.split('T');
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year} ${time.slice(0, 5)} UTC`;
}

export function renderReceiptHtml(receipt: Receipt, last4: string | null): string {
  const payment = receipt.card
    ? `${receipt.card.card_brand} •••• ${last4 ?? '????'}`
    : (PAYMENT_LABELS[receipt.payment_type] ?? receipt.payment_type);
  const installments = receipt.installment_plan?.number_installments;
  const status = STATUS_LABELS[receipt.status];
  const rows: [string, string][] = [
    ...(status ? ([['Situação', status]] as [string, string][]) : []),
    ['Valor', formatBrl(receipt.amount)],
    ['Data', formatDate(receipt.created_at)],
    ['Pagamento', installments && installments > 1 ? `${payment} (${installments}x)` : payment],
    ['Recibo nº', receipt.receipt_number],
    ...(receipt.auth_number ? ([['Autorização', receipt.auth_number]] as [string, string][]) : []),
    ...(receipt.description ? ([['Descrição', receipt.description]] as [string, string][]) : []),
    ['Transação', receipt.transaction],
  ];
  const id = receipt.taxpayer_id;
  const taxpayer = id.length === 11 ? `CPF ${id}` : `CNPJ ${id.length === 14 ? formatCNPJ(id) : id}`;
  const address = [receipt.business_address.line1, receipt.business_address.city, receipt.business_address.state].filter(Boolean).join(', ');
  return `<!DOCTYPE html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Recibo ${escapeHtml(receipt.receipt_number)} - ${escapeHtml(receipt.business_name)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f4f4f4;margin:0;padding:24px}
.receipt{max-width:360px;margin:auto;background:#fff;border:1px solid #ddd;border-radius:8px;padding:24px}
h1{font-size:18px;margin:0 0 4px}
.seller{color:#666;font-size:12px;margin:0 0 16px}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 12px;margin:0}
dt{color:#666}
dd{margin:0;text-align:right;word-break:break-all}
</style>
</head>
<body>
<main class="receipt">
<h1>${escapeHtml(receipt.business_name)}</h1>
<p class="seller">${escapeHtml(taxpayer)}${address ? ` · ${escapeHtml(address)}` : ''}</p>
<dl>
${rows.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`).join('\n')}
</dl>
</main>
</body>
</html>
`;
}
