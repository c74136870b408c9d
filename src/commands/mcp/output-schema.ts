import * as z from 'zod';
import { transferExplanationSchema } from '../../finance/explanation.js';
import { requestStatusSchema } from '../approvals/status-shape.js';
import { answers, type Resource } from '../../provider/schemas/answers.js';
import { resourceSchemas } from '../../provider/schemas/index.js';
import type { ToolSpec } from './tool-spec.js';

// Each tool's outputSchema: the shape of what its verb prints with -o json, read off the schema
// that checks it. A verb that prints what the service answered (most of them) has the schema the
// client checks that answer with (provider/schemas), found through the operation the verb reads
// (provider/schemas/answers.ts); a verb that prints a shape of its own has that shape's schema
// (finance/explanation.ts, approvals/status-shape.ts). The service's schemas are loose: a field the provider adds passes.
// A verb whose shape has no schema yet gets an honest "an object" rather than a guess.

/** The operation whose answer each reading verb prints (or lists the items of). */
const PRINTS: Readonly<Record<string, keyof typeof answers>> = {
  'transactions list': 'transactions.list',
  'transactions get': 'transactions.get',
  'transactions splits list': 'transactions.splits.list',
  'transactions splits get': 'transactions.splits.get',
  'buyers list': 'buyers.list',
  'buyers get': 'buyers.get',
  'buyers search': 'buyers.search',
  'buyers find': 'buyers.list',
  'sellers list': 'sellers.list',
  'sellers get': 'sellers.get',
  'cards get': 'cards.get',
  'boletos get': 'boletos.get',
  'receipts get': 'receipts.get',
  'receivables get': 'receivables.get',
  'receivables list': 'receivables.listBySeller',
  'plans list': 'plans.list',
  'plans get': 'plans.get',
  'subscriptions list': 'subscriptions.list',
  'subscriptions get': 'subscriptions.get',
  'invoices list': 'invoices.list',
  'invoices get': 'invoices.get',
  'balances accounts': 'balances.accountsByBuyer',
  'balances history': 'balances.history',
  'balances get': 'balances.get',
  'balances current': 'balances.current',
  'transfers list': 'transfers.list',
  'transfers get': 'transfers.get',
  'transfers transactions': 'transfers.transactions',
  'future-entries list': 'futureEntries.list',
  'events list': 'events.list',
  'events get': 'events.get',
  'webhooks list': 'webhooks.list',
  'webhooks get': 'webhooks.get',
  // Money verbs: the resource they print once moved.
  'transactions refund': 'transactions.void',
  'transactions capture': 'transactions.capture',
  'transactions create': 'transactions.create',
};

/** Verbs that print a shape of their own, with its schema. */
const OWN_SHAPES: Readonly<Record<string, z.core.$ZodType>> = {
  'transfers explain': transferExplanationSchema,
  'approvals status': requestStatusSchema,
};

const anObject = (description: string) => z.looseObject({}).describe(description);

/** The schema of one item, or of the object, a verb prints; undefined when there is none to read it off. */
function printedSchema(verb: string): { schema: z.core.$ZodType; list: boolean } | undefined {
  const own = OWN_SHAPES[verb];
  if (own) return { schema: own, list: false };
  const operation = PRINTS[verb];
  if (!operation) return undefined;
  const answer = answers[operation] as { resource: Resource; shape: string };
  return { schema: resourceSchemas[answer.resource], list: answer.shape === 'list' };
}

/** A summary per group (--group-by): its rows, one a group, with their counts and sums. */
const groups = z.array(anObject('one group: its key, count and sums')).describe('with group_by: the sums per group, instead of items');

/** The money tools' envelope: on success and on error alike (result.ts). */
function envelopeSchema(moved: z.core.$ZodType): z.core.$ZodType {
  return z.looseObject({
    outcome: z.enum(['applied', 'already_done', 'waiting_for_approval', 'unknown', 'refused', 'failed']),
    message: z.string().describe('what happened and what to do next, as a person reads it'),
    transaction: z.optional(moved).describe('what was moved, as the verb prints it with -o json (applied, already_done)'),
    request: z
      .object({ id: z.string(), state: z.string(), summary: z.string(), expires_at: z.string() })
      .optional()
      .describe('waiting_for_approval: the request a person approves with `payctl approvals approve <id>`'),
    done_at: z.string().optional().describe('already_done: when payctl made the move'),
    done_by: z.string().optional().describe('already_done: who made it, as the ledger names them'),
  });
}

/** The outputSchema of a tool, as JSON Schema (draft-07, as the SDK's client checks it). */
export function outputSchemaOf(tool: ToolSpec): Record<string, unknown> {
  const printed = printedSchema(tool.verb);
  let schema: z.core.$ZodType;
  if (tool.class.kind === 'money') schema = envelopeSchema(printed?.schema ?? anObject('the resource the move changed'));
  else if (tool.paged || printed?.list) {
    const item = printed?.schema ?? anObject('one item of the list');
    schema = z.looseObject({
      items: z.array(item).optional().describe(tool.paged ? 'one page of the list, at most limit items' : 'the items'),
      ...(tool.paged ? { next_cursor: z.string().optional().describe('when there are more: pass it as cursor (with the same arguments) for the next page'), groups: groups.optional() } : {}),
    });
  } else if (printed) schema = printed.schema;
  else schema = anObject(`what payctl ${tool.verb} -o json prints`);
  const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}
