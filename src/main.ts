import { runCli } from './cli.js';
import { ExitCode } from './errors.js';
import { processIO } from './io.js';

// The only place the process exits: everything below returns an exit code instead, so tests can
// run the whole CLI in-process.
process.on('SIGINT', () => {
  // A command that handles Ctrl-C itself (sandbox serve stops cleanly) has its own listener.
  if (process.listenerCount('SIGINT') > 1) return;
  process.stderr.write('\ncancelled\n');
  process.exit(ExitCode.cancelled);
});

// `payctl … | head`: once the reader is gone, stop quietly instead of crashing on EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(ExitCode.ok);
    throw err;
  });
}

const code = await runCli(process.argv.slice(2), processIO());
// Let piped stdout/stderr drain before exiting, so no output is cut short.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
