import { lazy } from '../verb.js';
import { apiVerb } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const api = lazy(apiVerb, () => import('./run.js'));
