import { isIP } from 'node:net';
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { handleInterruptsHere } from '../../platform/interrupt.js';
import { SANDBOX_MARKETPLACE_ID, SANDBOX_SELLER_ID } from '../../provider/sandbox-account.js';
import { optionalString } from '../shared/input.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { serve } from './flags.js';

export async function run(ctx: Factory, _args: ArgsOf<typeof serve>, options: OptionsOf<typeof serve>): Promise<void> {
  const port = Number(optionalString(options.port) ?? '4010');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port: give a port number from 0 to 65535');
  const host = optionalString(options.host) ?? '127.0.0.1';
  const exposed = !isLoopback(host);
  if (exposed && options.expose !== true) {
    throw new UsageError(`--host: ${host} is not a loopback address; add --expose to serve the sandbox beyond this machine`);
  }
  const { startSandbox, parseFaults, FaultSpecError } = await import('../../sandbox/index.js');
  const spec = optionalString(options.faults);
  let faults;
  try {
    faults = spec === undefined ? undefined : parseFaults(spec);
  } catch (err) {
    if (err instanceof FaultSpecError) throw new UsageError(`--faults: ${err.message}`);
    throw err;
  }
  ctx.service.prepareSandboxState();
  let sandbox;
  try {
    sandbox = await startSandbox({ stateDir: ctx.config.paths.stateDir, host, port, deliver: true, isolateKeys: true, onNotice: (line) => ctx.log.warn(line), ...(faults ? { faults } : {}) });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`--port: ${port} is already in use on ${host}`);
    throw err;
  }
  // Printed even with --quiet, and before the URL: plain HTTP with test data, reachable by anyone who can reach the address.
  if (exposed) ctx.log.warn(`the sandbox is served on ${host}, beyond this machine, over plain HTTP; anyone who can reach it can use it with a key of their own`);
  ctx.io.stdout.write(`${sandbox.url}\n`);
  ctx.log.status(
    `Sandbox listening on ${sandbox.url} (state in ${ctx.config.paths.stateDir}); each test key (zpk_test_ and at least 16 more characters) is a marketplace of its own. Ctrl-C stops it.`,
  );
  // A profile pointed here by PAYCTL_BASE_URL does not take the embedded sandbox's ids: say which to use.
  ctx.log.status(`Every marketplace's seeded seller: PAYCTL_SELLER_ID=${SANDBOX_SELLER_ID} (marketplace ${SANDBOX_MARKETPLACE_ID}, or PAYCTL_MARKETPLACE_ID= for unprefixed paths)`);
  if (faults) ctx.log.status(`Injecting faults: ${faults.rates.map(([kind, rate]) => `${kind} ${(rate * 100).toFixed(1)}%`).join(', ')}`);
  const release = handleInterruptsHere();
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  release();
  await sandbox.close();
  ctx.log.status('Sandbox stopped');
}

/** 127.0.0.0/8, ::1 (also as ::ffff:127.x) and localhost: addresses only this machine reaches. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || /^(0*:)*:?0*1$/.test(bare) || /^::ffff:127\./.test(bare);
  return false;
}
