// Types for against.mjs, which stays plain JavaScript so that run.mjs runs on Node without a build.

/** The commit `rev` names in the repository at `repoRoot`; throws when it names none. */
export function resolveRevision(repoRoot: string, rev: string): string;

/** Builds `commit` into the empty directory `dir` and returns the path of its bin/payctl.js. */
export function buildRevision(repoRoot: string, commit: string, dir: string): string;

/** The side-by-side noise band: a ratio within ±NOISE of 1 is "same". */
export const NOISE: number;

/** This build's median against the other's, for a figure in `unit` (rates end in "/s" and are better higher). */
export function verdict(mine: number, theirs: number, unit: string): 'better' | 'same' | 'worse';
