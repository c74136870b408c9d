import { withoutControls } from '../platform/control-chars.js';

/**
 * API text is untrusted: escape sequences (which could repaint the terminal), control characters
 * and bidirectional overrides are removed, and newlines or tabs become spaces so rows stay rows
 * (and a cell stays one line in cli-table3). Half an emoji (a lone surrogate) becomes U+FFFD.
 */
export function sanitize(text: string): string {
  return withoutControls(text)
    .replace(/[\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}
