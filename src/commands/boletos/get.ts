import { showById } from '../shared/show.js';

export const run = showById('boletos.get', 'boleto id');
