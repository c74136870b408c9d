// Output longer than the screen goes through a pager, as git and gh do, but only when a person is
// reading it on a terminal: $PAGER (PAYCTL_PAGER first), else `less -FRX` (-F quits at once when
// it all fits after all, -R keeps colour, -X leaves the text on the screen after quitting).
// `--no-pager`, PAGER=cat or an empty PAGER print straight away; so does a pager that cannot start.
import { spawn } from 'node:child_process';
import { handleInterruptsHere } from '../platform/interrupt.js';

export interface PagerTarget {
  stdout: NodeJS.WritableStream;
  stdoutIsTTY: boolean;
  env: NodeJS.ProcessEnv;
}

/** The pager command, or undefined when paging is off. */
export function pagerCommand(env: NodeJS.ProcessEnv): string | undefined {
  const chosen = env.PAYCTL_PAGER ?? env.PAGER;
  if (chosen === undefined) return 'less -FRX';
  const trimmed = chosen.trim();
  return trimmed === '' || trimmed === 'cat' ? undefined : trimmed;
}

function lineCount(text: string): number {
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines += 1;
  return lines;
}

/**
 * Shows `text` through the pager when it is taller than the terminal; returns false when it did
 * not (the caller prints it). A terminal that reports no size (0 rows: a pseudo-terminal nobody
 * sized, as `script` makes) is not known to be shorter than anything, so it is not paged. Ctrl-C belongs to the pager meanwhile: less uses it itself.
 */
export async function showInPager(text: string, target: PagerTarget, enabled: boolean): Promise<boolean> {
  const rows = (target.stdout as { rows?: number }).rows;
  const command = pagerCommand(target.env);
  if (!enabled || !target.stdoutIsTTY || command === undefined || typeof rows !== 'number' || rows <= 0 || lineCount(text) < rows) return false;
  const release = handleInterruptsHere();
  const ignore = () => {};
  process.on('SIGINT', ignore);
  try {
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env: { LESS: 'FRX', ...target.env } });
      child.once('error', () => resolve(127));
      child.once('exit', (exitCode) => resolve(exitCode));
      // The pager may quit before reading it all (q): its closed pipe is not an error.
      child.stdin.once('error', () => {});
      child.stdin.end(text);
    });
    // 127: the shell found no such command. The text has not been shown: the caller prints it.
    return code !== 127;
  } finally {
    process.removeListener('SIGINT', ignore);
    release();
  }
}
