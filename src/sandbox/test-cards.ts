// The card numbers the sandbox knows the outcome of, for the help text that lists them. No imports:
// `payctl help sandbox` loads this and nothing else of the sandbox.

export const TEST_CARDS: ReadonlyArray<readonly [number: string, outcome: string]> = [
  ['4111111111111111', 'approved (Visa)'],
  ['5555555555554444', 'approved (Mastercard)'],
  ['4000000000000002', 'declined'],
];
