import type { Factory } from '../../factory.js';

export async function run(ctx: Factory): Promise<void> {
  // --dry-run promises that nothing changes; a reset sends no request, so it must stop here itself.
  if (ctx.globals.dryRun) {
    ctx.log.status(`dry run: would wipe the sandbox state in ${ctx.config.paths.stateDir}; nothing was changed`);
    return;
  }
  await ctx.prompts.confirm('Wipe all sandbox state (transactions, tokens)?', 'reset the sandbox');
  ctx.service.prepareSandboxState();
  const { resetSandbox } = await import('../../sandbox/index.js');
  await resetSandbox(ctx.config.paths.stateDir);
  ctx.log.status('Sandbox state wiped; the seeded seller, buyer and card are back');
}
