import { UsageError } from '../../errors.js';
import { didYouMean } from '../../validate/closest.js';

// The groups of money tools `payctl mcp --allow` (or the profile's mcp_allow) lists beside the
// reading ones. Read strictly: a group payctl cannot read is an error naming it, never a default
// that lets an agent move more money.

export const ALLOW_GROUPS = ['refunds', 'captures', 'creates', 'cancellations'] as const;
export type AllowGroup = (typeof ALLOW_GROUPS)[number];

/** `refunds,captures` → those groups; `none` (or nothing) → none. */
export function parseAllow(value: string, name: string): AllowGroup[] {
  const words = value
    .split(',')
    .map((word) => word.trim().toLowerCase())
    .filter(Boolean);
  if (words.length === 1 && words[0] === 'none') return [];
  const groups: AllowGroup[] = [];
  for (const word of words) {
    if (!(ALLOW_GROUPS as readonly string[]).includes(word)) {
      throw new UsageError(`${name}: "${word}" is not a group of money tools; use ${ALLOW_GROUPS.join(', ')} (comma-separated) or none${didYouMean(word, ALLOW_GROUPS)}`);
    }
    if (!groups.includes(word as AllowGroup)) groups.push(word as AllowGroup);
  }
  return groups;
}
