import { findBuyer, listBuyers, parseSearch, planCreateBuyer, planUpdateBuyer, removeBuyer, searchBuyer } from './buyer-ops.js';
import { buyerView } from './buyers.js';
import { findCard, planAssociateCard, removeCard } from './card-ops.js';
import { cardView } from './cards.js';
import type { RequestContext, Route } from './route.js';
import { findSource, planCreateSource, removeSource } from './sources.js';
import { mutateState, readState } from './store.js';

// Routes of buyers, cards on file and sources: the parties and means a sale is charged to.

const id = (c: RequestContext): string => c.params.id ?? '';

export const accountRoutes: Route[] = [
  {
    pattern: ['buyers'],
    handlers: {
      GET: async (c) => ({ status: 200, body: listBuyers(await readState(c.stateDir, c.now), c.query, c.path) }),
      POST: async (c) => {
        const plan = planCreateBuyer(c.body);
        return { status: 201, body: await mutateState(c.stateDir, c.now, (state) => plan(state, c.now())) };
      },
    },
  },
  {
    pattern: ['buyers', 'search'],
    handlers: {
      GET: async (c) => {
        const taxpayerId = parseSearch(c.query);
        return { status: 200, body: searchBuyer(await readState(c.stateDir, c.now), taxpayerId) };
      },
    },
  },
  {
    pattern: ['buyers', ':id'],
    handlers: {
      GET: async (c) => {
        const state = await readState(c.stateDir, c.now);
        return { status: 200, body: buyerView(findBuyer(state, id(c)), state.marketplace_id) };
      },
      PUT: async (c) => {
        const change = planUpdateBuyer(c.body);
        const body = await mutateState(c.stateDir, c.now, (state) => {
          const buyer = findBuyer(state, id(c));
          change(buyer, state, c.now());
          return buyerView(buyer, state.marketplace_id);
        });
        return { status: 200, body };
      },
      DELETE: async (c) => ({ status: 200, body: await mutateState(c.stateDir, c.now, (state) => removeBuyer(state, id(c))) }),
    },
  },
  {
    pattern: ['cards'],
    handlers: {
      // The provider answers 200, not 201: the card already existed, it only gains an owner.
      POST: async (c) => {
        const plan = planAssociateCard(c.body);
        return { status: 200, body: await mutateState(c.stateDir, c.now, (state) => plan(state, c.now())) };
      },
    },
  },
  {
    pattern: ['cards', ':id'],
    handlers: {
      GET: async (c) => {
        const state = await readState(c.stateDir, c.now);
        return { status: 200, body: cardView(findCard(state, id(c)), state.marketplace_id) };
      },
      DELETE: async (c) => ({ status: 200, body: await mutateState(c.stateDir, c.now, (state) => removeCard(state, id(c), c.now())) }),
    },
  },
  {
    pattern: ['sources'],
    handlers: {
      POST: async (c) => {
        const plan = planCreateSource(c.body, c.now());
        return { status: 201, body: await mutateState(c.stateDir, c.now, (state) => plan(state, c.now())) };
      },
    },
  },
  {
    pattern: ['sources', ':id'],
    handlers: {
      GET: async (c) => ({ status: 200, body: findSource(await readState(c.stateDir, c.now), id(c)) }),
      DELETE: async (c) => ({ status: 200, body: await mutateState(c.stateDir, c.now, (state) => removeSource(state, id(c), c.now())) }),
    },
  },
];
