import { bindGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const mcp = bindGroup(verb.mcp, verb, {
  serve: () => import('./serve.js'),
  setup: () => import('./setup.js'),
});
