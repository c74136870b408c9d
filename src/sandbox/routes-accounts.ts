import { findBuyer, listBuyers, parseSearch, planCreateBuyer, planUpdateBuyer, removeBuyer, searchBuyer } from './buyer-ops.js';
import { findCard, planAssociateCard, removeCard } from './card-ops.js';
import { cardView } from './cards.js';
import { changing, changingOne, creating, idOf, reading } from './handlers.js';
import type { RouteTable } from './route.js';
import { findSource, planCreateSource, removeSource } from './sources.js';

// Routes of buyers, cards on file and sources: the parties and means a sale is charged to.

export const accountRoutes = {
  'buyers.list': reading((state, c) => listBuyers(state, c.query, c.path)),
  'buyers.create': creating(planCreateBuyer),
  'buyers.search': reading((state, c) => searchBuyer(state, parseSearch(c.query))),
  'buyers.get': reading((state, c) => findBuyer(state, idOf(c))),
  'buyers.update': changingOne(findBuyer, (c) => planUpdateBuyer(c.body)),
  'buyers.remove': changing((state, c) => removeBuyer(state, idOf(c))),
  // The provider answers 200, not 201: the card already existed, it only gains an owner.
  'cards.associate': creating(planAssociateCard, 200),
  'cards.get': reading((state, c) => cardView(findCard(state, idOf(c)), state.marketplace_id)),
  'cards.remove': changing((state, c) => removeCard(state, idOf(c), c.now())),
  'sources.create': creating(planCreateSource),
  'sources.get': reading((state, c) => findSource(state, idOf(c))),
  'sources.remove': changing((state, c) => removeSource(state, idOf(c), c.now())),
} satisfies RouteTable;
