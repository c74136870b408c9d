import { lazy } from '../verb.js';
import { completionVerb } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const completion = lazy(completionVerb, () => import('./run.js'));
