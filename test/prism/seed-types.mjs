// Where payctl sends the seed's types instead of the provider file's (seed 4.1: `capture` as the
// text "true"/"false", a boleto's `amount` as numeric text), the body the file would have had.
// check:prism validates that copy too: a request whose only violations are those two fields is
// counted as seed-typed, and any other violation still fails.

/** The body with the seed's text types read as the file's boolean and number; the same object when nothing differs. */
export function asProviderTypes(body) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const copy = { ...body };
  let changed = false;
  if (copy.capture === 'true' || copy.capture === 'false') {
    copy.capture = copy.capture === 'true';
    changed = true;
  }
  if (typeof copy.amount === 'string' && /^\d+$/.test(copy.amount)) {
    copy.amount = Number(copy.amount);
    changed = true;
  }
  return changed ? copy : body;
}
