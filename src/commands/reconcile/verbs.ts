import { lazy } from '../verb.js';
import { reconcileVerb } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const reconcile = lazy(reconcileVerb, () => import('./run.js'));
