// The card-data flags, without card.ts and its checks: loaded to build help. Their help says a
// little less where a verb's own help already says it (a source's card is never prompted for).
import { flag, type FlagValues } from '../verb.js';

const PREFER = 'prefer --card-file or the prompt';

/** `tokenize`: a card is all the verb is about; `charge`: one way among others to pay; `source`: never prompted for. */
export function cardFlags(kind: 'tokenize' | 'charge' | 'source') {
  const card = kind === 'tokenize' ? '' : 'card ';
  return {
    cardNumber: flag('--card-number <digits>', `card number (visible in ps/history: ${kind === 'source' ? 'prefer --card-file' : PREFER})`),
    holderName: flag('--holder-name <name>', 'cardholder name'),
    expMonth: flag('--exp-month <MM>', `${card}expiry month`),
    expYear: flag('--exp-year <YYYY>', `${card}expiry year`),
    cvv: flag('--cvv <digits>', kind === 'source' ? 'card security code' : `${card}security code (visible in ps/history: ${PREFER})`),
    cardFile: flag('--card-file <path|->', `JSON file (or - for stdin) with ${kind === 'source' ? 'the card details' : 'card_number, holder_name, expiration_month, expiration_year, security_code'}`),
  };
}

export type CardFlagValues = FlagValues<ReturnType<typeof cardFlags>>;
