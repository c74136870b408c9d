import { CliError, ExitCode } from '../errors.js';

// What goes wrong with the ledger itself. Money never moves without it: an intent is written
// before every send, so a ledger that cannot be reached stops the move before anything leaves.

/** The shared ledger does not answer (down, unreachable, a statement timed out): exit 8. */
export class LedgerUnreachableError extends CliError {
  constructor(
    readonly where: string,
    cause: unknown,
  ) {
    super(`the ledger ${where} cannot be reached (${reason(cause)}); no money moves without it. Reads (get, list, export) still work`, ExitCode.network, { cause });
  }
}

/**
 * This process's leases ran out without being renewed (the ledger stopped answering, or the
 * process was frozen): another machine may have taken its locks over, so it sends nothing more.
 */
export class LeaseLostError extends CliError {
  constructor(where: string, cause?: unknown) {
    super(`lost its locks in the ledger ${where}${cause ? ` (${reason(cause)})` : ''}: another payctl may have taken them over; stopped before sending anything more`, ExitCode.network, { cause });
  }
}

function reason(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as { code?: string }).code;
    const message = cause.message.split('\n')[0] || cause.name;
    return code && !message.includes(code) ? `${code}: ${message}` : message;
  }
  return String(cause);
}

/** A PostgreSQL URL as it may be shown: the password masked, like an API key. */
export function maskLedgerUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '****';
    if (parsed.searchParams.has('password')) parsed.searchParams.set('password', '****');
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:****@');
  }
}

/** The secrets a ledger URL carries, to keep out of every message and log. */
export function ledgerUrlSecrets(url: string): string[] {
  try {
    const parsed = new URL(url);
    return [decodeURIComponent(parsed.password), parsed.searchParams.get('password') ?? ''].filter((s) => s.length > 0);
  } catch {
    return [];
  }
}
