import type { Factory } from '../../factory.js';
import type { OptionsOf } from '../verb.js';
import type { serve as serveVerb } from './flags.js';
import { parseAllow } from './allow.js';

/**
 * `payctl mcp`: serves the Model Context Protocol on stdin and stdout for the current profile. The
 * SDK is loaded here only: no other command's start-up pays for it.
 */
export async function run(ctx: Factory, _args: string[], options: OptionsOf<typeof serveVerb>): Promise<void> {
  const profile = await ctx.config.profile();
  const allow = options.allow !== undefined ? parseAllow(options.allow, '--allow') : profile.mcpAllow !== undefined ? parseAllow(profile.mcpAllow, `profile "${profile.name}" mcp_allow`) : [];
  if (ctx.io.stdinIsTTY) {
    ctx.log.warn("payctl mcp speaks the Model Context Protocol on stdin and stdout, for an agent's client to run (see 'payctl mcp setup'); Ctrl-D ends it");
  }
  const { serve } = await import('./server.js');
  await serve(ctx, { allow });
}
