// `balances get` and `balances current` on a terminal: finance's first look, in R$ like every
// other table, with the time the figure is as of, and whose account it is: a seller or a buyer by
// name when the balance says which it is. See src/output/object-view.ts.
import type { ObjectView } from '../../output/object-view.js';

const OWNER = [
  { label: 'Owner', at: 'owner', kind: 'id' as const, names: (item: Record<string, unknown>) => (item.type === 'seller' || item.type === 'buyer' ? item.type : undefined) },
  { label: 'Type', at: 'type' },
];

/** Current, future and available balance. */
export const BALANCE_VIEW: ObjectView = {
  noun: 'Account',
  id: 'account',
  summary: [
    { label: 'Current', at: 'current_balance', kind: 'money' },
    { label: 'Future entries', at: 'future_entries', kind: 'money' },
    { label: 'Available', at: 'available_balance', kind: 'money' },
    ...OWNER,
    { label: 'Updated', at: 'updated_at', kind: 'date' },
  ],
  sections: [],
};

/** What is in the account now. */
export const CURRENT_BALANCE_VIEW: ObjectView = {
  noun: 'Account',
  id: 'account',
  summary: [{ label: 'Current', at: 'current_balance', kind: 'money' }, ...OWNER, { label: 'As of', at: 'as_of', kind: 'date' }],
  sections: [],
};
