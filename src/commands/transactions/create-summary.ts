// What a create walk-through shows before it asks: the charge in words, as the customer would
// describe it ("3x R$ 49,97 on MasterCard ••••4444"), not the request body. Card data is never
// shown beyond its brand and last four digits.
import { withoutControls } from '../../platform/control-chars.js';
import { formatMoney } from '../../output/format.js';
import { cardBrand } from '../../validate/card.js';
import { centsToDecimalString } from '../../validate/index.js';

const TYPE_WORDS: Record<string, string> = { credit: 'card', boleto: 'boleto', bolepix: 'boleto with PIX', pix: 'PIX' };

/** Installments of `cents` as the service splits them: the first ones take the remaining cents. */
function installmentText(cents: number, count: number, currency: string): string {
  const base = Math.floor(cents / count);
  const first = base + (cents - base * count);
  return first === base ? `${count}x ${formatMoney(centsToDecimalString(base), currency)}` : `${count}x ${formatMoney(centsToDecimalString(base), currency)} (the first ${formatMoney(centsToDecimalString(first), currency)})`;
}

/** The lines of the summary, label and value, for the request body `body` (the create's own). */
export function createSummary(body: Record<string, unknown>): Array<[string, string]> {
  const currency = typeof body.currency === 'string' ? body.currency : 'BRL';
  const cents = Number(body.amount);
  const type = String(body.payment_type ?? '');
  const lines: Array<[string, string]> = [['Amount', `${formatMoney(centsToDecimalString(cents), currency)} by ${TYPE_WORDS[type] ?? type}`]];
  const plan = body.installment_plan as { number_installments?: number } | undefined;
  if (plan?.number_installments && plan.number_installments > 1) lines.push(['Installments', installmentText(cents, plan.number_installments, currency)]);
  const card = (body.source as { card?: { card_number?: string; holder_name?: string; id?: string } } | undefined)?.card;
  if (card?.card_number) {
    const digits = card.card_number.replace(/\D/g, '');
    // With the buyer, the card's details are a new card saved to them before it is charged.
    const saved = typeof body.customer === 'string' ? ' (saved to the buyer first)' : '';
    lines.push(['Card', `${cardBrand(digits)} ••••${digits.slice(-4)}${card.holder_name ? `, ${card.holder_name}` : ''}${saved}`]);
  } else if (card?.id) lines.push(['Card', `stored card ${card.id}`]);
  if (body.capture === 'false') lines.push(['Capture', 'later (pre-authorization only)']);
  if (typeof body.customer === 'string') lines.push(['Buyer', body.customer]);
  const method = body.payment_method as { expiration_date?: string } | undefined;
  if (method?.expiration_date) lines.push(['Due', method.expiration_date]);
  if (typeof body.pix_expiration_date_time === 'string') lines.push(['PIX expires', body.pix_expiration_date_time]);
  if (typeof body.reference_id === 'string') lines.push(['Reference', body.reference_id]);
  if (typeof body.description === 'string') lines.push(['Description', body.description]);
  if (Array.isArray(body.split_rules) && body.split_rules.length > 0) lines.push(['Split', `with ${body.split_rules.length} other seller${body.split_rules.length === 1 ? '' : 's'}`]);
  return lines;
}

/** The summary as text: one aligned line a label. */
export function createSummaryText(body: Record<string, unknown>): string {
  const lines = createSummary(body);
  const width = Math.max(...lines.map(([label]) => label.length));
  // A description or a holder name is what someone typed: no escape reaches the terminal.
  return lines.map(([label, value]) => `  ${label.padEnd(width)}  ${withoutControls(value)}`).join('\n');
}
