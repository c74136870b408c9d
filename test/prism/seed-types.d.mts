// Types for seed-types.mjs, which stays plain JavaScript so that run.mjs runs on Node without a build.
export function asProviderTypes(body: unknown): unknown;
