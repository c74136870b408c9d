import * as z from 'zod/mini';

// The shape of the config file, as a zod schema. Errors are never shown as zod prints them:
// store.ts turns the first issue into one line naming the file and the key at fault.

/** A profile: the known settings, and any other key (a newer payctl's) a string, as before. */
const profile = z.catchall(
  z.object({
    base_url: z.optional(z.string()),
    api_key: z.optional(z.string()),
    api_key_ref: z.optional(z.string()),
    marketplace_id: z.optional(z.string()),
    seller_id: z.optional(z.string()),
    currency: z.optional(z.string()),
    output: z.optional(z.string()),
    timeout: z.optional(z.number()),
    ledger_url: z.optional(z.string()),
    ledger_url_ref: z.optional(z.string()),
    settle_window: z.optional(z.number()),
    timezone: z.optional(z.string()),
    csv_locale: z.optional(z.string()),
    operator_name: z.optional(z.string()),
    mcp_allow: z.optional(z.string()),
  }),
  z.string(),
);

/** Top-level keys payctl does not know are kept, so a rewrite never drops them. */
export const configSchema = z.looseObject({
  current_profile: z.optional(z.string()),
  profiles: z.optional(z.record(z.string(), profile)),
});

export type ConfigSchema = typeof configSchema;
