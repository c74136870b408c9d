import { bindGroup, lazy } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const login = lazy(verb.loginVerb, () => import('./login.js'));

export const logout = lazy(verb.logoutVerb, () => import('./logout.js'));

export const whoami = lazy(verb.whoamiVerb, () => import('./whoami.js'));

export const profiles = bindGroup(verb.profiles, verb, { profilesList: () => import('./profiles-list.js'), profilesUse: () => import('./profiles-use.js'), profilesRemove: () => import('./profiles-remove.js') });
