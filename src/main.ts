import { workerData } from 'node:worker_threads';
import { setEntryUrl } from './entry.js';
import { VERSION } from './version.js';

// The embedded sandbox runs this same bundle on a worker thread (sandbox/thread-host.ts), which
// says so in its workerData; every other start is the command line.
const sandboxThread = (workerData as { payctlSandbox?: import('./sandbox/thread-main.js').SandboxThreadData } | null)?.payctlSandbox;
if (sandboxThread) {
  const [{ runSandboxThread }, { tuneRuntime }] = await Promise.all([import('./sandbox/thread-main.js'), import('./platform/runtime.js')]);
  tuneRuntime();
  await runSandboxThread(sandboxThread);
} else {
  setEntryUrl(import.meta.url);
  await runCommandLine(process.argv.slice(2));
}

async function runCommandLine(args: string[]): Promise<void> {
  // `payctl --version` is what scripts and shell prompts call most: answer it before anything else
  // is even loaded (every module is a file to read and compile; this keeps it to the version's).
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    process.stdout.write(`${VERSION}\n`);
    process.exit(0);
  }

  const [{ ExitCode }, { interruptionNote, interruptsHandledElsewhere, stopAllBeforeExit }, { processIO }] = await Promise.all([
    import('./errors.js'),
    import('./platform/interrupt.js'),
    import('./io.js'),
  ]);
  // What must stop before an early exit (the embedded sandbox's thread) gets this long, so that
  // Ctrl-C still ends the command within a second.
  const STOP_MS = 300;
  const exitNow = (code: number) => {
    stopAllBeforeExit(STOP_MS);
    process.exit(code);
  };

  // The only place the process exits: everything below returns an exit code instead, so tests can
  // run the whole CLI in-process.
  // Ctrl-C and SIGTERM (a service manager, `timeout`, `kill`) alike: say what was in flight, exit 3.
  const cancel = () => {
    // A command that handles these itself (sandbox serve stops cleanly) has said so.
    if (interruptsHandledElsewhere()) return;
    const note = interruptionNote();
    process.stderr.write(note ? `\ncancelled: ${note}\n` : '\ncancelled\n');
    exitNow(ExitCode.cancelled);
  };
  process.on('SIGINT', cancel);
  process.on('SIGTERM', cancel);

  // `payctl … | head`: once the reader is gone, stop quietly instead of crashing on EPIPE.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') exitNow(ExitCode.ok);
      throw err;
    });
  }

  const { runCli } = await import('./cli.js');
  // V8 is tuned for a command that runs (platform/runtime.ts); help is answered without loading node:v8.
  // The young generation is capped for the commands that read from the service, not for the
  // sandbox's own (serve, generate, advance), which build what they serve and store: the cap is
  // process-wide, so it holds the embedded sandbox's thread too, and capped, `sandbox serve` spent
  // a fifth more time on each page it served.
  const code = await runCli(args, processIO(), {
    beforeAction: async (verb) => (await import('./platform/runtime.js')).tuneRuntime({ capYoungGeneration: !verb.startsWith('sandbox ') }),
  });
  // Let piped stdout/stderr drain before exiting, so no output is cut short.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}
