import { lazy } from '../verb.js';
import { exportVerb } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const exportCommand = lazy(exportVerb, () => import('./run.js'));
