// `balances get` and `balances current` on a terminal: finance's first look, in R$ like every
// other table, with the time the figure is as of, and whose account it is: a seller or a buyer by
// name when the balance says which it is, or when its owner is a seller payctl knows of (the one
// asked about, or the profile's). See src/output/object-view.ts.
import type { ObjectView, ViewField } from '../../output/object-view.js';
import { ownerKind } from './shared.js';

/** Whose account it is: a seller's or a buyer's, as the balance says, else a seller's when the owner is one of `sellers`. */
function owner(sellers: readonly string[]): ViewField[] {
  return [
    { label: 'Owner', at: 'owner', kind: 'id', names: (item) => ownerKind(item) ?? (typeof item.owner === 'string' && sellers.includes(item.owner) ? 'seller' : undefined) },
    { label: 'Type', at: 'type' },
  ];
}

/** Current, future and available balance; `sellers`: ids known to be sellers' (see owner). */
export function balanceView(sellers: readonly string[]): ObjectView {
  return {
    noun: 'Account',
    id: 'account',
    summary: [
      { label: 'Current', at: 'current_balance', kind: 'money' },
      { label: 'Future entries', at: 'future_entries', kind: 'money' },
      { label: 'Available', at: 'available_balance', kind: 'money' },
      ...owner(sellers),
      { label: 'Updated', at: 'updated_at', kind: 'date' },
    ],
    sections: [],
  };
}

/** What is in the account now (the answer does not say whose it is: see owner). */
export function currentBalanceView(sellers: readonly string[]): ObjectView {
  return {
    noun: 'Account',
    id: 'account',
    summary: [{ label: 'Current', at: 'current_balance', kind: 'money' }, ...owner(sellers), { label: 'As of', at: 'as_of', kind: 'date' }],
    sections: [],
  };
}
