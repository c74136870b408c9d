import { findBuyer, listBuyers, parseSearch, planCreateBuyer, planUpdateBuyer, removeBuyer, searchBuyer } from './buyer-ops.js';
import { buyerView } from './buyers.js';
import { findCard, planAssociateCard, removeCard } from './card-ops.js';
import { cardView } from './cards.js';
import { changing, changingOne, creating, idOf, reading } from './handlers.js';
import type { Route } from './route.js';
import { findSource, planCreateSource, removeSource } from './sources.js';

// Routes of buyers, cards on file and sources: the parties and means a sale is charged to.

export const accountRoutes: Route[] = [
  {
    pattern: ['buyers'],
    handlers: { GET: reading((state, c) => listBuyers(state, c.query, c.path)), POST: creating(planCreateBuyer) },
  },
  { pattern: ['buyers', 'search'], handlers: { GET: reading((state, c) => searchBuyer(state, parseSearch(c.query))) } },
  {
    pattern: ['buyers', ':id'],
    handlers: {
      GET: reading((state, c) => buyerView(findBuyer(state, idOf(c)), state.marketplace_id)),
      PUT: changingOne(findBuyer, (c) => planUpdateBuyer(c.body), (buyer, state) => buyerView(buyer, state.marketplace_id)),
      DELETE: changing((state, c) => removeBuyer(state, idOf(c))),
    },
  },
  // The provider answers 200, not 201: the card already existed, it only gains an owner.
  { pattern: ['cards'], handlers: { POST: creating(planAssociateCard, 200) } },
  {
    pattern: ['cards', ':id'],
    handlers: {
      GET: reading((state, c) => cardView(findCard(state, idOf(c)), state.marketplace_id)),
      DELETE: changing((state, c) => removeCard(state, idOf(c), c.now())),
    },
  },
  { pattern: ['sources'], handlers: { POST: creating(planCreateSource) } },
  {
    pattern: ['sources', ':id'],
    handlers: {
      GET: reading((state, c) => findSource(state, idOf(c))),
      DELETE: changing((state, c) => removeSource(state, idOf(c), c.now())),
    },
  },
];
