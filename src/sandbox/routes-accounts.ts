import { findBuyer, listBuyers, parseSearch, planCreateBuyer, planUpdateBuyer, removeBuyer, searchBuyer } from './buyer-ops.js';
import { buyerView } from './buyers.js';
import { findCard, planAssociateCard, removeCard } from './card-ops.js';
import { cardView } from './cards.js';
import { changing, changingOne, creating, idOf, reading } from './handlers.js';
import type { RouteTable } from './route.js';
import { findSource, planCreateSource, removeSource } from './sources.js';

// Routes of buyers, cards on file and sources: the parties and means a sale is charged to.

export const accountRoutes: RouteTable = {
  'GET buyers': reading((state, c) => listBuyers(state, c.query, c.path)),
  'POST buyers': creating(planCreateBuyer),
  'GET buyers/search': reading((state, c) => searchBuyer(state, parseSearch(c.query))),
  'GET buyers/:id': reading((state, c) => buyerView(findBuyer(state, idOf(c)), state.marketplace_id)),
  'PUT buyers/:id': changingOne(findBuyer, (c) => planUpdateBuyer(c.body), (buyer, state) => buyerView(buyer, state.marketplace_id)),
  'DELETE buyers/:id': changing((state, c) => removeBuyer(state, idOf(c))),
  // The provider answers 200, not 201: the card already existed, it only gains an owner.
  'POST cards': creating(planAssociateCard, 200),
  'GET cards/:id': reading((state, c) => cardView(findCard(state, idOf(c)), state.marketplace_id)),
  'DELETE cards/:id': changing((state, c) => removeCard(state, idOf(c), c.now())),
  'POST sources': creating(planCreateSource),
  'GET sources/:id': reading((state, c) => findSource(state, idOf(c))),
  'DELETE sources/:id': changing((state, c) => removeSource(state, idOf(c), c.now())),
};
