import { showWithView } from '../shared/show.js';
import { RECEIPT_VIEW } from './view.js';

export const run = showWithView('receipts.get', 'receipt id', RECEIPT_VIEW);
