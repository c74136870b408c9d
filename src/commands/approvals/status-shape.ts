import * as z from 'zod/mini';

// What `approvals status` answers, written once as a schema: status.ts types what it prints off it
// (a type-only import: the verb never loads zod for it), and `payctl mcp` gives agents its JSON
// Schema as approvals_status's outputSchema, so an agent polling a request reads a typed state.

const when = z.nullable(z.string());

export const requestStatusSchema = z.object({
  id: z.string(),
  state: z.enum(['pending', 'approved', 'denied', 'expired', 'sent', 'failed']),
  summary: z.string(),
  expires_at: z.string(),
  /** Who approved or denied it (`user@host`), when someone did. */
  decided_by: z.nullable(z.string()),
  decided_by_name: z.nullable(z.string()),
  decided_at: when,
  /** Why it was denied or failed. */
  reason: z.nullable(z.string()),
  /** The ledger's move that sent it, and that move's state there (`applied` once the service shows it done). */
  intent_id: z.nullable(z.number()),
  intent_state: z.nullable(z.string()),
});

export type RequestStatus = z.infer<typeof requestStatusSchema>;
