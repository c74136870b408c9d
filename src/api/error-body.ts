import { ApiError } from '../errors.js';

interface ProviderError {
  status?: unknown;
  status_code?: unknown;
  type?: unknown;
  category?: unknown;
  message?: unknown;
  reasons?: unknown;
}

/**
 * The provider's error body is `{error:{status,status_code,type,category,message,reasons}}`;
 * status_code may be a number or a string, and some errors arrive with HTTP 200. Returns null
 * when the parsed body is not an error.
 */
export function errorFromJson(httpStatus: number, body: unknown): ApiError | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const error = (body as { error?: unknown }).error;
  if (!error || typeof error !== 'object') return flatErrorFromJson(httpStatus, body as Record<string, unknown>);
  const e = error as ProviderError;
  const declared = Number.parseInt(String(e.status_code ?? ''), 10);
  // An error body under HTTP 2xx still is an error: trust its own status code, else call it 400.
  const status = httpStatus >= 400 ? httpStatus : Number.isFinite(declared) && declared >= 400 ? declared : 400;
  const message = typeof e.message === 'string' && e.message.trim() ? e.message.trim() : describeStatus(status, e.status);
  const reasons = Array.isArray(e.reasons) ? e.reasons.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))) : undefined;
  const details: ConstructorParameters<typeof ApiError>[1] = { httpStatus: status };
  if (typeof e.category === 'string') details.category = e.category;
  if (typeof e.type === 'string') details.type = e.type;
  if (reasons?.length) details.reasons = reasons;
  return new ApiError(message, details);
}

/**
 * A few provider operations (boleto cancellation) answer errors as `{status, message}` with no
 * `error` wrapper. Only taken as an error under an error status: a 2xx with these keys is a result.
 */
function flatErrorFromJson(httpStatus: number, body: Record<string, unknown>): ApiError | null {
  if (httpStatus < 400 || typeof body.message !== 'string' || !body.message.trim()) return null;
  const details: ConstructorParameters<typeof ApiError>[1] = { httpStatus };
  if (typeof body.status === 'string' && body.status) details.category = body.status.toLowerCase();
  return new ApiError(body.message.trim(), details);
}

/** For an error status whose body is not the provider's JSON (a proxy page, nothing at all). */
export function errorFromText(httpStatus: number, text: string, contentType: string | undefined): ApiError {
  const trimmed = text.trim();
  let message: string;
  if (!trimmed) message = `${describeStatus(httpStatus)} (empty response body)`;
  else if (contentType?.includes('html')) message = `${describeStatus(httpStatus)} (the server answered with an HTML page, not the API's JSON)`;
  else message = `${describeStatus(httpStatus)}: ${trimmed.replace(/\s+/g, ' ').slice(0, 200)}`;
  return new ApiError(message, { httpStatus });
}

const STATUS_TEXT: Record<number, string> = {
  400: 'bad request',
  401: 'the API key was not accepted',
  402: 'request failed',
  403: 'forbidden: the API key may not do this',
  404: 'not found',
  409: 'conflict',
  422: 'the request was not valid',
  429: 'rate limited',
  500: 'the service had an internal error',
  502: 'bad gateway',
  503: 'the service is unavailable',
  504: 'gateway timeout',
};

function describeStatus(status: number, statusText?: unknown): string {
  if (STATUS_TEXT[status]) return STATUS_TEXT[status];
  if (typeof statusText === 'string' && statusText) return statusText;
  return `unexpected HTTP status ${status}`;
}

/** The one line printed for an API error: message, category and HTTP status. */
export function formatApiError(error: ApiError): string {
  const tags = [error.details.category, `HTTP ${error.details.httpStatus}`].filter(Boolean).join(', ');
  const reasons = error.details.reasons?.length ? `: ${error.details.reasons.join('; ')}` : '';
  return `${error.message}${reasons} (${tags})`;
}
