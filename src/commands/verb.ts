import type { Context } from '../context.js';

// What a command group's registration is handed, kept apart from cli.ts so that the groups, which
// cli.ts imports, never import it back.

/** A verb's implementation, loaded only when that verb runs. */
export interface VerbModule {
  run(ctx: Context, args: string[], options: Record<string, unknown>): Promise<void>;
}

/** Turns a verb's lazy loader into the action commander calls. */
export type ActionFactory = (load: () => Promise<VerbModule>) => (...args: unknown[]) => Promise<void>;
