import type { Context } from '../../context.js';

export async function run(ctx: Context): Promise<void> {
  await ctx.confirm('Wipe all sandbox state (transactions, tokens)?', 'reset the sandbox');
  const { resetSandbox } = await import('../../sandbox/index.js');
  await resetSandbox(ctx.paths.stateDir);
  ctx.log.status('Sandbox state wiped; the seeded seller, buyer and card are back');
}
