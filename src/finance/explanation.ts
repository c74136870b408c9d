import * as z from 'zod/mini';

// What `transfers explain` answers (finance/explain.ts), written once as a schema: the types the
// code uses are read off it, and `payctl mcp` gives agents its JSON Schema as the tool's
// outputSchema. Only types are imported from here by the code that builds an explanation, so
// explaining a transfer never loads zod for it.

/** A sum of money as the service writes it: a decimal string (`100.00`). */
const amount = z.string();

export const explainedItemSchema = z.object({
  receivable: z.string(),
  transaction: z.nullable(z.string()),
  installment: z.nullable(z.string()),
  gross: amount,
  fee: amount,
  /** Refunded of the sale before the payout (already out of the gross). */
  refunded: amount,
  /** Charged back of the sale before the payout. */
  charged_back: amount,
  net: amount,
});

export const unexplainedItemSchema = z.object({
  receivable: z.string(),
  /** Its sale, when the receivable could be read. */
  transaction: z.nullable(z.string()),
  /** The receivable was read, but its sale is not in the service. */
  sale_missing: z.boolean(),
  why: z.string(),
});

export const transferExplanationSchema = z.object({
  transfer: z.string(),
  seller: z.nullable(z.string()),
  status: z.nullable(z.string()),
  transfer_date: z.nullable(z.string()),
  created_at: z.nullable(z.string()),
  items: z.array(explainedItemSchema),
  unexplained: z.array(unexplainedItemSchema),
  sum: z.object({ gross: amount, fees: amount, refunded: amount, charged_back: amount, net: amount }),
  transfer_fee: amount,
  /** The items' net less the transfer's fee: what the transfer should be. */
  expected: amount,
  amount,
  /** amount − expected: 0.00 when it adds up. */
  difference: amount,
  matched: z.boolean(),
});

export type ExplainedItem = z.infer<typeof explainedItemSchema>;
export type UnexplainedItem = z.infer<typeof unexplainedItemSchema>;
export type TransferExplanation = z.infer<typeof transferExplanationSchema>;
