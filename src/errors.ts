// Typed errors. Commands throw these; src/main.ts is the one place that turns them into
// a message on stderr and an exit code (see the exit-code table in docs/scripting.md).

export const ExitCode = {
  ok: 0,
  internal: 1,
  usage: 2,
  cancelled: 3,
  auth: 4,
  notFound: 5,
  rejected: 6,
  rateLimited: 7,
  network: 8,
  outcomeUnknown: 9,
  bulkPartial: 10,
  duplicate: 11,
  /** A transfer (or a period of them) that does not add up to the centavo. */
  unreconciled: 12,
  /** A rule of the team's policy sent this move to a person: recorded as a request, nothing sent. */
  approvalPending: 13,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export class CliError extends Error {
  readonly exitCode: ExitCodeValue;
  constructor(message: string, exitCode: ExitCodeValue, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.exitCode = exitCode;
  }
}

/**
 * A CliError that always ends in `exitCode`. Most errors differ only in that (and in the name a
 * catch tells them apart by), so each is a class of its own extending one of these.
 */
function exitingWith(exitCode: ExitCodeValue) {
  return class extends CliError {
    constructor(message: string, options?: { cause?: unknown }) {
      super(message, exitCode, options);
    }
  };
}

/** Bad flag, failed validation, missing input with prompts off: exit 2. */
export class UsageError extends exitingWith(ExitCode.usage) {}

/** A value given for a flag failed a check; names the flag so the user knows what to fix. */
export class ValidationError extends UsageError {
  readonly flag: string;
  constructor(flag: string, message: string) {
    super(`${flag}: ${message}`);
    this.flag = flag;
  }
}

/** The user declined a confirmation or pressed Ctrl-C: exit 3. */
export class CancelledError extends CliError {
  constructor(message = 'cancelled') {
    super(message, ExitCode.cancelled);
  }
}

export interface ApiErrorDetails {
  httpStatus: number;
  category?: string;
  type?: string;
  reasons?: string[];
}

/** The API answered with an error body; the exit code follows its HTTP status. */
export class ApiError extends CliError {
  readonly details: ApiErrorDetails;
  constructor(message: string, details: ApiErrorDetails) {
    super(message, exitCodeForStatus(details.httpStatus));
    this.details = details;
  }
}

/** Connection refused, DNS failure, timeout, reset, or 5xx after retries: exit 8. */
export class NetworkError extends exitingWith(ExitCode.network) {}

/**
 * The same money move is in flight in another payctl process (or another worker of this one):
 * nothing was sent. Exit 8, like every "not applied, try again later".
 */
export class InFlightError extends exitingWith(ExitCode.network) {}

/** A money-moving request may or may not have been applied; the message says how to check: exit 9. */
export class OutcomeUnknownError extends exitingWith(ExitCode.outcomeUnknown) {}

/**
 * payctl already made this same money move on this resource (any command, batch, profile or
 * machine sharing the ledger), or the resource's own history shows it: nothing was sent, and
 * `--again` sends it anyway. Exit 11.
 */
export class ProbableDuplicateError extends exitingWith(ExitCode.duplicate) {}

/**
 * A money move the resource no longer allows, seen in it before anything was sent (a refund of
 * more than is left, a capture of a sale already captured): exit 6, like the service's refusal,
 * naming what is left. Checked before the ledger's memory, so it is never offered --again.
 */
export class NotAllowedError extends exitingWith(ExitCode.rejected) {}

/**
 * A rule of the team's policy (kept in the ledger) sent this move to a second person: it is
 * recorded as an approval request, and nothing was sent. Exit 13; the message names the request.
 */
export class ApprovalPendingError extends exitingWith(ExitCode.approvalPending) {}

/**
 * The team's policy does not permit this move: a rule blocks it, or it would pass a daily limit,
 * or a request for it was denied or has expired. Nothing was sent. Exit 4, as a permission is.
 */
export class PolicyRefusedError extends exitingWith(ExitCode.auth) {}

/** The person at an agent's MCP client declined a move a rule let them confirm, or did not answer: nothing sent. */
export class DeclinedAtClientError extends PolicyRefusedError {}

/**
 * --dry-run reached the first request a command would send: it was printed instead, and the
 * command stops there, successfully. Not a CliError: nothing went wrong.
 */
export class DryRunStop extends Error {
  constructor() {
    super('dry run: nothing was sent');
    this.name = 'DryRunStop';
  }
}

export function exitCodeForStatus(status: number): ExitCodeValue {
  if (status === 401 || status === 403) return ExitCode.auth;
  if (status === 404) return ExitCode.notFound;
  if (status === 429) return ExitCode.rateLimited;
  if (status >= 500) return ExitCode.network;
  if (status >= 400) return ExitCode.rejected;
  return ExitCode.internal;
}
