import { showById } from '../shared/show.js';

export const run = showById('receipts.get', 'receipt id');
