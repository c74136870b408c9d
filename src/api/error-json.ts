import * as z from 'zod/mini';
import { ApiError } from '../errors.js';
import { describeStatus } from './error-body.js';

// The provider's error bodies. `{error: {status, status_code, type, category, message, reasons}}`,
// status_code a number or a string, sometimes under HTTP 200; and, from a few operations (boleto
// cancellation), `{status, message}` with no wrapper. Each field is taken when it has its type and
// dropped when not: an error is reported whatever else the body holds.

const maybe = <T extends z.ZodMiniType>(schema: T) => z.catch(z.optional(schema), undefined);

const wrappedError = z.looseObject({
  error: z.looseObject({
    status: maybe(z.string()),
    status_code: maybe(z.union([z.number(), z.string()])),
    type: maybe(z.string()),
    category: maybe(z.string()),
    message: maybe(z.string()),
    reasons: maybe(z.array(z.unknown())),
  }),
});

const flatError = z.looseObject({
  status: maybe(z.string()),
  message: z.string().check(z.trim(), z.minLength(1)),
});

/** The error a parsed body carries, or null when it is not an error body. */
export function errorFromJson(httpStatus: number, body: unknown): ApiError | null {
  const wrapped = wrappedError.safeParse(body);
  if (!wrapped.success) return flatErrorFromJson(httpStatus, body);
  const e = wrapped.data.error;
  const declared = Number.parseInt(String(e.status_code ?? ''), 10);
  // An error body under HTTP 2xx still is an error: trust its own status code, else call it 400.
  const status = httpStatus >= 400 ? httpStatus : Number.isFinite(declared) && declared >= 400 ? declared : 400;
  const message = e.message?.trim() ? e.message.trim() : describeStatus(status, e.status);
  const reasons = e.reasons?.map((r) => (typeof r === 'string' ? r : JSON.stringify(r)));
  const details: ConstructorParameters<typeof ApiError>[1] = { httpStatus: status };
  if (e.category !== undefined) details.category = e.category;
  if (e.type !== undefined) details.type = e.type;
  if (reasons?.length) details.reasons = reasons;
  return new ApiError(message, details);
}

/** The unwrapped form is taken as an error only under an error status: a 2xx with these keys is a result. */
function flatErrorFromJson(httpStatus: number, body: unknown): ApiError | null {
  if (httpStatus < 400) return null;
  const flat = flatError.safeParse(body);
  if (!flat.success) return null;
  const details: ConstructorParameters<typeof ApiError>[1] = { httpStatus };
  if (flat.data.status) details.category = flat.data.status.toLowerCase();
  return new ApiError(flat.data.message, details);
}
