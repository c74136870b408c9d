import { join, resolve } from 'node:path';

/** Where the sandbox keeps its database, under a state directory: the sandbox's own layout, so it lives here. */
export function sandboxDir(stateDir: string): string {
  return join(resolve(stateDir), 'sandbox');
}
