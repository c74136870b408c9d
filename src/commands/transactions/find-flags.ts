// The flags of a search by buyer, card or amount (find.ts), without find.ts: loaded to build help.
import { flag, type FlagValues } from '../verb.js';

export const FIND_FLAGS = {
  customer: flag('--customer <buyer>', "only this buyer's sales: a buyer id, their e-mail or CPF/CNPJ (searches the last 30 days unless --from/--to)"),
  cardLast4: flag('--card-last4 <digits>', 'only sales on a card ending in these 4 digits'),
  holder: flag('--holder <name>', 'only sales on a card whose holder name holds this (any case, accents ignored)'),
  amount: flag('--amount <amount>', 'only sales of this amount (what was sold, in reais: 149.90 or 149,90)'),
  amountMin: flag('--amount-min <amount>', 'only sales of at least this amount'),
  amountMax: flag('--amount-max <amount>', 'only sales of at most this amount'),
};

export type FindFlagValues = FlagValues<typeof FIND_FLAGS>;

/** Whether any of the search flags is given. */
export function searching(options: FindFlagValues): boolean {
  return (Object.keys(FIND_FLAGS) as (keyof FindFlagValues)[]).some((key) => options[key] !== undefined);
}
