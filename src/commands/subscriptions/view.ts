// `subscriptions get` on a terminal: the id support needs for suspend/reactivate in the title,
// then what it bills, when, and on which card: the plan, the buyer, the card ("MasterCard
// ••••4444") and the seller by name. See src/output/object-view.ts. Amounts are shown after
// subscriptionRow has turned the API's cents into a decimal.
import { AMOUNT, CREATED, CUSTOMER, DESCRIPTION, PAID_BY, SELLER, resourceView } from '../../output/resource-view.js';

export const SUBSCRIPTION_VIEW = resourceView('Subscription', 'uuid', [
  AMOUNT,
  { label: 'Plan', at: 'plan', kind: 'id', names: 'plan' },
  CUSTOMER,
  { label: 'Card', at: 'card', kind: 'id', names: 'card' },
  PAID_BY,
  { label: 'Next due', at: 'due_date', kind: 'date' },
  { label: 'Due since', at: 'due_since_date', kind: 'date' },
  { label: 'Ends', at: 'expiration_date', kind: 'date' },
  { label: 'Suspended', at: 'suspended_at', kind: 'date' },
  DESCRIPTION,
  SELLER,
  CREATED,
]);
