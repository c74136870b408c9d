import { showWithView } from '../shared/show.js';
import { BOLETO_VIEW, boletoRow } from './view.js';

export const run = showWithView('boletos.get', 'boleto id', BOLETO_VIEW, boletoRow);
