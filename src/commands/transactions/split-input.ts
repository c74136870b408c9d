import { ValidationError } from '../../errors.js';
import { validateId } from '../../validate/index.js';
import { parseCharge, type Charge } from '../shared/charge.js';

// `--split <seller-id>:<amount|percent%>[,liable][,net]`: who else gets part of a sale, checked
// before anything is sent and turned into the provider's split_rules.

export interface SplitInput {
  recipient: string;
  share: Charge;
  liable: boolean;
  /** The provider's charge_processing_fee: the recipient's part carries its share of the fees. */
  net: boolean;
}

const OPTIONS = /,(liable|net)$/i;

/** One --split value. The amount may use a decimal comma (7,50): options are only read at the end. */
export function parseSplit(value: string, flag = '--split'): SplitInput {
  const colon = value.indexOf(':');
  if (colon <= 0) throw new ValidationError(flag, `"${value}" should look like <seller-id>:<amount|percent%>[,liable][,net], e.g. <seller-id>:30% or <seller-id>:7.50,liable`);
  const recipient = validateId(value.slice(0, colon), 'seller id', flag);
  let rest = value.slice(colon + 1).trim();
  const options = new Set<string>();
  for (let match = OPTIONS.exec(rest); match; match = OPTIONS.exec(rest)) {
    const option = (match[1] as string).toLowerCase();
    if (options.has(option)) throw new ValidationError(flag, `"${value}" says ${option} twice`);
    options.add(option);
    rest = rest.slice(0, match.index).trim();
  }
  if (rest === '') throw new ValidationError(flag, `"${value}" has no amount or percentage after the seller id`);
  return { recipient, share: parseCharge(rest, flag), liable: options.has('liable'), net: options.has('net') };
}

/** A percentage as integer hundredths of a percent: "12.5" → 1250. */
export function basisPoints(percentage: string): number {
  const [whole = '0', fraction = ''] = percentage.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}

/** The cents a share is worth of `amountCents`: a percentage rounds down (the sale's seller keeps the remainder). */
export function shareCents(share: Charge, amountCents: number): number {
  return share.mode === 'fixed' ? share.cents : Math.floor((basisPoints(share.value) * amountCents) / 10_000);
}

const money = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/**
 * Checks the splits of one sale together: each recipient once, never the sale's own seller (who
 * gets what the parts leave), percentages at most 100% and all parts at most the amount.
 */
export function checkSplits(splits: SplitInput[], amountCents: number, onBehalfOf: string | null | undefined, flag = '--split'): SplitInput[] {
  const seen = new Set<string>();
  for (const split of splits) {
    if (seen.has(split.recipient)) throw new ValidationError(flag, `seller ${split.recipient} is named twice; give each recipient one part`);
    seen.add(split.recipient);
    if (split.recipient === onBehalfOf) {
      throw new ValidationError(flag, `seller ${split.recipient} is the sale's own seller (--on-behalf-of): it gets what the other parts leave`);
    }
  }
  const percent = splits.reduce((sum, s) => sum + (s.share.mode === 'percentage' ? basisPoints(s.share.value) : 0), 0);
  if (percent > 10_000) throw new ValidationError(flag, `the parts add up to ${percent / 100}%, more than 100%`);
  const total = splits.reduce((sum, s) => sum + shareCents(s.share, amountCents), 0);
  if (total > amountCents) throw new ValidationError(flag, `the parts add up to ${money(total)}, more than the amount ${money(amountCents)}`);
  return splits;
}

/**
 * One split in the provider's shape, both flags explicit. The provider's file requires `amount`
 * (integer cents) in every variant, the percentage ones too: a percentage part carries the cents
 * it is worth of a sale of `saleCents` (rounded down) beside its `percentage`, so either reading
 * gives the same part.
 */
export function splitRuleBody(split: SplitInput, saleCents: number): Record<string, unknown> {
  return {
    recipient: split.recipient,
    liable: split.liable,
    charge_processing_fee: split.net,
    amount: shareCents(split.share, saleCents),
    ...(split.share.mode === 'percentage' ? { percentage: Number(split.share.value) } : {}),
  };
}
