import { showById } from '../shared/show.js';

export const run = showById('sources.get', 'source id');
