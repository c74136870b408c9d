import { bindGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const boletos = bindGroup(verb.boletos, verb, { get: () => import('./get.js'), send: () => import('./send.js'), cancel: () => import('./cancel.js') });
