import { showWithView } from '../shared/show.js';
import { RECEIVABLE_VIEW } from '../transfers/view.js';

export const run = showWithView('receivables.get', 'receivable id', RECEIVABLE_VIEW);
