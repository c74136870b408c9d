import { join, resolve } from 'node:path';
import { ensureDir } from '../platform/dirs.js';

/** Where the sandbox keeps its database, under a state directory: the sandbox's own layout, so it lives here. */
export function sandboxDir(stateDir: string): string {
  return join(resolve(stateDir), 'sandbox');
}

/**
 * Makes the sandbox's directory if missing, and checks it can be written, before the sandbox
 * starts: one that cannot be used is one line naming it (exit 2) before anything is sent, rather
 * than a failed request (a network error, or an unknown outcome).
 */
export function prepareSandboxDir(stateDir: string): void {
  ensureDir(sandboxDir(stateDir), 'state directory');
}
