import { showWithView } from '../shared/show.js';
import { SOURCE_VIEW, sourceRow } from './view.js';

export const run = showWithView('sources.get', 'source id', SOURCE_VIEW, sourceRow);
