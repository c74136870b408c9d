// How the service's errors read: its own messages when its body carries one (error-json.ts
// reads them), else a description of the status.
import { ApiError } from '../errors.js';

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

export function describeStatus(status: number, statusText?: unknown): string {
  if (STATUS_TEXT[status]) return STATUS_TEXT[status];
  if (typeof statusText === 'string' && statusText) return statusText;
  return `unexpected HTTP status ${status}`;
}

/**
 * The one line printed for an API error: message, its reasons, category and HTTP status. A message
 * written as a sentence ("… already exists (id: …).") loses its closing stop before the reasons
 * follow it, which would read ".: taxpayer_id: …".
 */
export function formatApiError(error: ApiError): string {
  const tags = [error.details.category, `HTTP ${error.details.httpStatus}`].filter(Boolean).join(', ');
  if (!error.details.reasons?.length) return `${error.message} (${tags})`;
  return `${error.message.replace(/[\s.:;,]+$/, '')}: ${error.details.reasons.join('; ')} (${tags})`;
}
