import { ExitCode } from './errors.js';
import { interruptionNote } from './interrupt.js';
import { processIO } from './io.js';
import { VERSION } from './version.js';

// The only place the process exits: everything below returns an exit code instead, so tests can
// run the whole CLI in-process.
process.on('SIGINT', () => {
  // A command that handles Ctrl-C itself (sandbox serve stops cleanly) has its own listener.
  if (process.listenerCount('SIGINT') > 1) return;
  const note = interruptionNote();
  process.stderr.write(note ? `\ncancelled: ${note}\n` : '\ncancelled\n');
  process.exit(ExitCode.cancelled);
});

// `payctl … | head`: once the reader is gone, stop quietly instead of crashing on EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(ExitCode.ok);
    throw err;
  });
}

const args = process.argv.slice(2);
// `payctl --version` is what scripts and shell prompts call most: answer it without loading the
// command tree at all.
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${VERSION}\n`);
  process.exit(ExitCode.ok);
}
const { runCli } = await import('./cli.js');
const code = await runCli(args, processIO());
// Let piped stdout/stderr drain before exiting, so no output is cut short.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
