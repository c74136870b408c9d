// Every failure the sandbox reports is a SandboxError, rendered with the provider's error body
// ({"error":{status, status_code, type, category, message, reasons?}}) so a client that handles
// the real service's errors handles the sandbox's unchanged.

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Request Failed',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export class SandboxError extends Error {
  override readonly name = 'SandboxError';

  constructor(
    readonly httpStatus: number,
    readonly category: string,
    message: string,
    private readonly options: { reasons?: string[]; headers?: Record<string, string>; bareBody?: BareErrorBody } = {},
  ) {
    super(message);
  }

  get headers(): Record<string, string> {
    return this.options.headers ?? {};
  }

  /** The provider's error envelope, or the bare body of the few services that answer without one. */
  toBody() {
    const { bareBody, reasons } = this.options;
    if (bareBody) return bareBody;
    return {
      error: {
        status: STATUS_TEXT[this.httpStatus] ?? 'Error',
        status_code: this.httpStatus,
        type: this.httpStatus >= 500 ? 'processing_error' : 'invalid_request_error',
        category: this.category,
        message: this.message,
        ...(reasons && reasons.length > 0 ? { reasons } : {}),
      },
    };
  }
}

/** The provider's boleto-cancellation service answers `{status, message}` instead of the error envelope. */
export interface BareErrorBody {
  status: string;
  message: string;
}

/** A failure the provider reports in its bare `{status, message}` body, not the error envelope. */
export function bareError(httpStatus: number, status: string, message: string): SandboxError {
  return new SandboxError(httpStatus, status.toLowerCase(), message, { bareBody: { status, message } });
}

/** The provider's wording for a missing resource, so clients can show it verbatim. */
export function notFound(kind: string, id: string): SandboxError {
  return new SandboxError(
    404,
    'resource_not_found',
    `Sorry, the ${kind} (id: ${id}) you are trying to use does not exist or has been deleted.`,
  );
}

/** The record looked up, or the provider's 404 for it when there is none. */
export function found<T>(record: T | undefined, kind: string, id: string): T {
  if (record === undefined) throw notFound(kind, id);
  return record;
}

/** 400 for what a subscription's or invoice's status does not allow, naming the statuses that do. */
export function invalidStatus(kind: 'subscription' | 'invoice', id: string, status: string, action: string, allowed: string): SandboxError {
  return new SandboxError(400, `invalid_${kind}_status`, `The ${kind} (id: ${id}) cannot be ${action}: its status is ${status}; only ${allowed} ${kind}s can be.`);
}

export interface Problem {
  field: string;
  message: string;
}

/** 400 invalid_parameter naming every offending field, one `reasons` line per problem. */
export function invalidParameters(problems: Problem[]): SandboxError {
  const fields = [...new Set(problems.map((p) => p.field))];
  return new SandboxError(
    400,
    'invalid_parameter',
    `Invalid parameter(s): ${fields.join(', ')}. Please verify request parameters.`,
    { reasons: problems.map((p) => `${p.field}: ${p.message}`) },
  );
}

/** Answers 400 invalid_parameter when a handler has found any problems, all of them in one answer. */
export function throwProblems(problems: Problem[]): void {
  if (problems.length > 0) throw invalidParameters(problems);
}
