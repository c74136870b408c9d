// The flags of a search by buyer, card or amount (find.ts), without find.ts: loaded to build help.
import type { Command } from 'commander';

const FIND_FLAGS = ['customer', 'cardLast4', 'holder', 'amount', 'amountMin', 'amountMax'] as const;

/** Whether any of the search flags is given. */
export function searching(options: Record<string, unknown>): boolean {
  return FIND_FLAGS.some((flag) => options[flag] !== undefined);
}

export function addFindFlags(command: Command): Command {
  return command
    .option('--customer <buyer>', "only this buyer's sales: a buyer id, their e-mail or CPF/CNPJ (searches the last 30 days unless --from/--to)")
    .option('--card-last4 <digits>', "only sales on a card ending in these 4 digits")
    .option('--holder <name>', 'only sales on a card whose holder name holds this (any case, accents ignored)')
    .option('--amount <amount>', 'only sales of this amount (what was sold, in reais: 149.90 or 149,90)')
    .option('--amount-min <amount>', 'only sales of at least this amount')
    .option('--amount-max <amount>', 'only sales of at most this amount');
}
