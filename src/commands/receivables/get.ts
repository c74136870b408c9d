import { showById } from '../shared/show.js';

export const run = showById('receivables.get', 'receivable id');
