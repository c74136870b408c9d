// What the views of most resources share (see object-view.ts): a title of noun, id and status, a
// description and a creation date ending the summary, and the metadata as the last section.
// Types only from object-view.ts: a view is declared without loading what draws it.
import type { ObjectView, ViewField, ViewSection } from './object-view.js';

export const DESCRIPTION: ViewField = { label: 'Description', at: 'description' };
export const CREATED: ViewField = { label: 'Created', at: 'created_at', kind: 'date' };
/** The free-form metadata, key by key. */
export const METADATA: ViewSection = { title: 'Metadata', entries: 'metadata' };

/** A resource's view, titled "<noun> <id>  <status>" from its `id` field and its `status`. */
export function resourceView(noun: string, id: string, summary: ViewField[], sections: ViewSection[] = [METADATA]): ObjectView {
  return { noun, id, status: 'status', summary, sections };
}
