import type { Resource } from '../provider/schemas/answers.js';
import type { Factory } from '../factory.js';
import { UsageError } from '../errors.js';
import { writeOut } from '../output/write.js';
import { didYouMean } from '../validate/closest.js';

// --fields is checked against what the verb prints before the verb runs: a mistyped path is
// refused before anything is sent (a refund is never made and then its output refused), and
// `--fields help` lists the paths there are. Loaded only when --fields is given.

interface Printed {
  /**
   * The API resource the verb prints (one, or a list of them); several when the answer may be any
   * of them (a removal answers what was removed, or only its id), the one named first.
   */
  resource: Resource | readonly Resource[];
  /** Display-only fields the table adds (a masked document), valid with `-o table` only. */
  tableOnly?: string[];
}

/** Verbs of `group` that each print `resource`: `printing('plans', 'plan', ['create', 'list'])`. */
function printing(group: string, resource: Resource, verbs: readonly string[]): Record<string, Printed> {
  return Object.fromEntries(verbs.map((verb) => [`${group} ${verb}`, { resource }]));
}

/**
 * What each verb prints. A verb not here (api, whoami, config, the sandbox's reports) prints
 * something with no schema: its --fields is not checked.
 */
export const PRINTED: Readonly<Record<string, Printed>> = {
  ...printing('transactions', 'transaction', ['create', 'list', 'get', 'update', 'refund', 'capture']),
  'transactions cancellation-letter': { resource: 'cancellation letter' },
  ...printing('transactions splits', 'split rule', ['list', 'get', 'add']),
  'transactions splits remove': { resource: 'removal' },
  ...printing('sellers', 'seller', ['create', 'get', 'update']),
  'sellers list': { resource: 'seller', tableOnly: ['name', 'document', 'contact'] },
  'sellers remove': { resource: 'removal' },
  ...printing('buyers', 'buyer', ['create', 'get', 'update', 'search']),
  'buyers list': { resource: 'buyer', tableOnly: ['name', 'document'] },
  'buyers find': { resource: 'buyer', tableOnly: ['name', 'document'] },
  'buyers remove': { resource: 'removal' },
  'cards tokenize': { resource: 'card token' },
  ...printing('cards', 'card', ['associate', 'get']),
  'cards remove': { resource: 'removal' },
  ...printing('sources', 'source', ['create', 'get']),
  'sources remove': { resource: 'removal' },
  'boletos get': { resource: 'boleto' },
  'boletos send': { resource: 'acknowledgement' },
  'boletos cancel': { resource: 'boleto cancellation' },
  'receipts get': { resource: 'receipt' },
  ...printing('receipts', 'acknowledgement', ['email', 'sms']),
  ...printing('receivables', 'receivable', ['get', 'list']),
  ...printing('plans', 'plan', ['create', 'list', 'get', 'update']),
  'plans remove': { resource: ['plan', 'removal'] },
  ...printing('subscriptions', 'subscription', ['create', 'list', 'get', 'update', 'suspend', 'reactivate']),
  'subscriptions remove': { resource: ['subscription', 'removal'] },
  ...printing('invoices', 'invoice', ['create', 'list', 'get', 'approve', 'refund']),
  'invoices remove': { resource: ['invoice', 'removal'] },
  ...printing('balances', 'balance', ['accounts', 'get', 'current']),
  'balances history': { resource: 'balance history entry' },
  ...printing('transfers', 'transfer', ['list', 'get']),
  'transfers transactions': { resource: 'transaction' },
  'future-entries list': { resource: 'future entry' },
  ...printing('webhooks', 'webhook', ['create', 'list', 'get']),
  'webhooks remove': { resource: 'removal' },
  'webhooks listen': { resource: 'event', tableOnly: ['signature', 'forwarded'] },
  ...printing('events', 'event', ['list', 'get']),
  'events replay': { resource: 'event replay' },
  'sandbox pay': { resource: 'transaction' },
};

const HELP_HINT = "'--fields help' lists every path";

/**
 * Checks --fields against what `verb` ("transactions refund") prints. Returns true when it was
 * `--fields help` and the list has been printed instead (the verb is not to run); throws a usage
 * error naming an unknown path.
 */
export async function checkFields(ctx: Factory, verb: string): Promise<boolean> {
  const fields = ctx.globals.fields ?? [];
  const askedForHelp = fields.length === 1 && fields[0] === 'help';
  const printed = Object.hasOwn(PRINTED, verb) ? PRINTED[verb] : undefined;
  if (!printed) {
    if (askedForHelp) throw new UsageError(`--fields help: payctl ${verb} prints no API resource with a known set of fields; --fields takes any dotted path of its output`);
    return false;
  }
  const [{ resourceSchemas }, { fieldTree, findUnknown, listPaths, mergeTrees, topFields }] = await Promise.all([import('../provider/schemas/index.js'), import('../provider/schemas/fields.js')]);
  const resources = typeof printed.resource === 'string' ? [printed.resource] : printed.resource;
  let tree = resources.map((resource) => fieldTree(resourceSchemas[resource])).reduce(mergeTrees);
  if (printed.tableOnly && (await ctx.out.outputFormat()) === 'table') {
    tree = mergeTrees(tree, { kind: 'object', fields: new Map(printed.tableOnly.map((name) => [name, { kind: 'value' }])) });
  }
  if (askedForHelp) {
    await writeOut(ctx.io.stdout, `${listPaths(tree).join('\n')}\n`);
    return true;
  }
  const unknown = fields.map((field) => findUnknown(tree, field)).filter((u) => u !== undefined);
  const first = unknown[0];
  if (!first) return false;
  const hint = (path: string) => (printed.tableOnly?.includes(path) ? ' (shown in tables only)' : didYouMean(path, listPaths(tree)));
  const names = unknown.map((u) => `"${u.path}"${hint(u.path)}`).join(', ');
  const what = `--fields: unknown field${unknown.length > 1 ? 's' : ''} ${names} for ${plural(resources[0] as string)}`;
  const there =
    first.parent === ''
      ? `fields: ${topFields(tree).join(', ')}`
      : first.siblings.length > 0
        ? `${first.parent} has: ${first.siblings.join(', ')}`
        : `${first.parent} has nothing below it`;
  throw new UsageError(`${what}; ${there}; ${HELP_HINT}`);
}

function plural(resource: string): string {
  return /[^aeiou]y$/.test(resource) ? `${resource.slice(0, -1)}ies` : `${resource}s`;
}
