// Counts in messages and tables: "1 transaction", "2 transactions", never "1 transactions", and
// "20.005 transactions", grouped the pt-BR way. Every message with a count takes its noun from here.

/** The word for a count: `one` for exactly one, otherwise `many` (by default `one` plus "s"). */
export function noun(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? one : many;
}

/** A count grouped as a Brazilian reader groups it, as money is (`R$ 3.834,13`): 20.005. */
export function formatCount(count: number): string {
  return Number.isSafeInteger(count) ? String(count).replace(/\B(?=(\d{3})+(?!\d))/g, '.') : String(count);
}

/** A count and its noun: "1 row", "3 rows", "0 future entries", "20.005 transactions". */
export function counted(count: number, one: string, many?: string): string {
  return `${formatCount(count)} ${noun(count, one, many)}`;
}

/** The singular of a plural noun as lists name their items: "entries" → "entry", "transactions" → "transaction". */
export function singular(plural: string): string {
  return plural.endsWith('ies') ? `${plural.slice(0, -3)}y` : plural.replace(/s$/, '');
}
