// How values look in tables (and in messages such as confirmations). JSON and CSV never go
// through here: they keep the API's values as they are. No imports with side effects: chalk is
// passed in by the caller, which loads it only when colour is on.
import type { ChalkInstance } from 'chalk';

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

/**
 * Money the Brazilian way: `R$ 1.234,56`; another currency shows its code (`USD 1.234,56`).
 * Amounts come from the API as decimal strings ("1234.5") and are reformatted digit by digit,
 * never through a float. Centavos always show two digits; extra non-zero digits are kept rather
 * than rounded away. Anything that is not a plain decimal number is returned unchanged.
 */
export function formatMoney(amount: string | number, currency?: string | null): string {
  const text = typeof amount === 'number' ? (Number.isFinite(amount) ? String(amount) : '') : amount.trim();
  const match = /^([+-]?)(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) return String(amount);
  const [, sign, whole = '0', rawFraction = ''] = match;
  const fraction = rawFraction.replace(/0+$/, '').padEnd(2, '0');
  const isZero = /^0*$/.test(whole + fraction);
  const code = (currency || 'BRL').trim().toUpperCase();
  const symbol = code === 'BRL' ? 'R$' : code;
  const integer = groupThousands(whole.replace(/^0+(?=\d)/, ''));
  return `${sign === '-' && !isZero ? '-' : ''}${symbol} ${integer},${fraction}`;
}

const TIMESTAMP =
  /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

const two = (n: number) => String(n).padStart(2, '0');

/**
 * An ISO timestamp → `YYYY-MM-DD HH:MM` in the reader's local time zone (TZ): the short form a
 * table has room for, in the zone of the clock on the reader's wall. The API's own zone marker is
 * honoured; timestamps without one are taken as UTC. A plain date stays as it is (a due date is a
 * day, not an instant), and so does a UTC midnight; anything unrecognised is returned unchanged.
 * JSON and CSV keep the raw ISO.
 */
export function formatDateTime(iso: string): string {
  const text = iso.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
  // A day sent as its UTC midnight (a receivable's expected_on) is a day too: shifted to
  // São Paulo it would read as 21:00 on the day before.
  const midnight = /^(\d{4}-\d{2}-\d{2})T00:00(?::00(?:\.0+)?)?(?:Z|z|[+-]00(?::?00)?)$/.exec(text);
  if (midnight) return midnight[1] as string;
  const match = TIMESTAMP.exec(text);
  if (!match) return iso;
  let offset = match[5] ?? 'Z';
  if (/^[+-]\d{2}$/.test(offset)) offset += ':00';
  else if (/^[+-]\d{4}$/.test(offset)) offset = `${offset.slice(0, 3)}:${offset.slice(3)}`;
  const date = new Date(`${match[1]}T${match[2]}:${match[3]}:${match[4] ?? '00'}${offset.toUpperCase()}`);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

const STATUS_COLORS = new Map<string, 'green' | 'yellow' | 'red'>(Object.entries({
  succeeded: 'green',
  paid: 'green',
  active: 'green',
  pending: 'yellow',
  pre_authorized: 'yellow',
  new: 'yellow',
  'over-due': 'yellow',
  overdue: 'yellow',
  suspended: 'yellow',
  failed: 'red',
  canceled: 'red',
  cancelled: 'red',
  refunded: 'red',
  reversed: 'red',
  charged_back: 'red',
  dispute: 'red',
  expired: 'red',
} as const));

/** A status word coloured by what it means for the money: green done, yellow waiting, red undone. */
export function colorStatus(status: string, chalk: ChalkInstance): string {
  const color = STATUS_COLORS.get(status.trim().toLowerCase());
  return color ? chalk[color](status) : status;
}

/**
 * How a cell is shown and fitted to a terminal. `text` may be cut (with "…") and dropped; a
 * `document`, a masked CPF or CNPJ, is dropped like text but never cut: cut, it loses the digits
 * it is shown for.
 */
export type CellKind = 'money' | 'date' | 'status' | 'id' | 'text' | 'document' | 'bar';

/** Which table formatting a key gets when the resource does not say (object tables, --fields). */
export function kindForKey(path: string): CellKind {
  const last = path.slice(path.lastIndexOf('.') + 1);
  if (last === 'amount' || last === 'original_amount' || last === 'fees' || last === 'fee' || last.endsWith('_amount')) return 'money';
  if (last === 'balance' || last.endsWith('_balance')) return 'money';
  if (last.endsWith('_at') || last === 'expected_on' || last === 'as_of' || last.endsWith('_date')) return 'date';
  if (last === 'status') return 'status';
  if (last === 'id' || last === 'uuid' || last.endsWith('_id')) return 'id';
  return 'text';
}
