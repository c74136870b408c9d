import { showById } from '../shared/show.js';

/**
 * A bolepix's `base64` is a PNG of its PIX QR code, over a thousand characters: a table names it
 * instead of filling the screen; JSON carries it whole.
 */
function withImageNamed(boleto: Record<string, unknown>): Record<string, unknown> {
  const image = boleto.base64;
  if (typeof image !== 'string' || image === '') return boleto;
  return { ...boleto, base64: `PNG of the QR code of emv, ${image.length} characters of base64 (-o json shows it)` };
}

export const run = showById('boletos.get', 'boleto id', withImageNamed);
