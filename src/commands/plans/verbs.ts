import { bindGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const plans = bindGroup(verb.plans, verb, {
  create: () => import('./create.js'),
  list: () => Promise.all([import('../shared/plain-list.js'), import('./shared.js')]).then(([m, s]) => ({ run: m.plainList('plans.list', 'plans', s.PLAN_COLUMNS, s.planRow) })),
  get: () => Promise.all([import('../shared/show.js'), import('./view.js'), import('./shared.js')]).then(([m, v, s]) => ({ run: m.showWithView('plans.get', 'plan id', v.PLAN_VIEW, s.planRow) })),
  update: () => import('./update.js'),
  remove: () => import('./remove.js'),
});
