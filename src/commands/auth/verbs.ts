import { defineGroup, lazy } from '../verb.js';
import { loginVerb, logoutVerb, profilesList, profilesRemove, profilesUse, whoamiVerb } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const login = lazy(loginVerb, () => import('./login.js'));

export const logout = lazy(logoutVerb, () => import('./logout.js'));

export const whoami = lazy(whoamiVerb, () => import('./whoami.js'));

export const profiles = defineGroup({
  name: 'profiles',
  description: 'List, switch and remove profiles',
  examples: ['payctl profiles list', 'payctl profiles use live'],
  verbs: [lazy(profilesList, () => import('./profiles-list.js')), lazy(profilesUse, () => import('./profiles-use.js')), lazy(profilesRemove, () => import('./profiles-remove.js'))],
});
