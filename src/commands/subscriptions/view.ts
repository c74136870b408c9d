// `subscriptions get` on a terminal: the id support needs for suspend/reactivate in the title,
// then what it bills, when, and on which card. See src/output/object-view.ts. Amounts are shown
// after subscriptionRow has turned the API's cents into a decimal.
import type { ObjectView } from '../../output/object-view.js';

export const SUBSCRIPTION_VIEW: ObjectView = {
  noun: 'Subscription',
  id: 'uuid',
  status: 'status',
  summary: [
    { label: 'Amount', at: 'amount', kind: 'money' },
    { label: 'Plan', at: 'plan', kind: 'id' },
    { label: 'Customer', at: 'customer', kind: 'id' },
    { label: 'Card', at: 'card', kind: 'id' },
    { label: 'Paid by', at: 'payment_method' },
    { label: 'Next due', at: 'due_date', kind: 'date' },
    { label: 'Due since', at: 'due_since_date', kind: 'date' },
    { label: 'Ends', at: 'expiration_date', kind: 'date' },
    { label: 'Suspended', at: 'suspended_at', kind: 'date' },
    { label: 'Description', at: 'description' },
    { label: 'Seller', at: 'on_behalf_of', kind: 'id' },
    { label: 'Created', at: 'created_at', kind: 'date' },
  ],
  sections: [{ title: 'Metadata', entries: 'metadata' }],
};
