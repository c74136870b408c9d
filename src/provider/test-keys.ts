// What an API key's prefix says: its mode, as the provider issues keys. A `zpk_test_` key acts on
// a test account, where no real money moves (payctl's sandbox, or the provider's own test
// environment); any other key on a live one. It never says which service answers: whether that is
// payctl's sandbox, with a clock of its own, is asked of the service (Service.sandboxClock, src/service.ts).

export const TEST_KEY_PREFIX = 'zpk_test_';

/** Whether `key` is a test key: one of a test account, where no real money moves. */
export function isTestKey(key: string | undefined): boolean {
  return key?.startsWith(TEST_KEY_PREFIX) === true;
}
