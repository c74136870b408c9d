import type { Command } from 'commander';
import * as z from 'zod';
import { UsageError } from '../../errors.js';
import { didYouMean } from '../../validate/closest.js';
import { collect } from '../shared/input.js';
import { longFlag, verbOf, type Flag } from '../verb.js';
import { TOOL_VERBS, WITHHELD_FLAGS, type ToolClass } from './catalog.js';
import { boundedLimit, DEFAULT_PAGE, MAX_PAGE, PAGE_INPUTS, PAGED_FLAGS, pageAsked, windowWord } from './paging.js';

// A tool is a verb: its name, inputs, description and examples are read off the verb's definition
// (the same data its --help and completions come from), and a call becomes that verb's command line,
// parsed and checked by the verb's own code as a user's is. So a bad CPF or amount is refused with
// the verb's own words, and there is one place a flag's meaning is written.

/** One input of a tool: a positional argument or a flag, as the tool names it (`request_id`, `amount_cents`). */
interface Input {
  name: string;
  kind: 'argument' | 'flag';
  /** `--amount` for a flag; the argument's place for an argument. */
  word: string;
  type: 'string' | 'boolean' | 'list';
  required: boolean;
  description: string;
  choices?: readonly string[];
  /** A flag with a `--no-x` too: false gives that. */
  negation?: boolean;
}

export interface ToolSpec {
  /** `transactions_refund`. */
  name: string;
  /** `transactions refund`: the words the command line starts with. */
  verb: string;
  class: ToolClass;
  description: string;
  inputs: Input[];
  /** The arguments' check, strict: an argument the tool does not take is an error naming it. */
  schema: z.ZodType<Record<string, unknown>>;
  /** The same, as JSON Schema, for tools/list. */
  inputSchema: Record<string, unknown>;
  /** A list read a page a call (`limit`, `cursor`: paging.ts), through its verb's hidden --window. */
  paged: boolean;
}

/** `request-id` → `request_id`. */
const toolWord = (word: string) => word.replace(/-/g, '_');

function flagInput(key: string, spec: Flag): Input {
  const long = longFlag(spec).slice(2);
  const takesValue = /[<[]/.test(spec.flags);
  const list = /\.\.\.[>\]]/.test(spec.flags) || spec.parse === (collect as unknown);
  return {
    name: toolWord(long),
    kind: 'flag',
    word: `--${long}`,
    type: !takesValue ? 'boolean' : list ? 'list' : 'string',
    required: false,
    description: spec.description ?? key,
    ...(spec.choices ? { choices: spec.choices } : {}),
    ...(spec.negation !== undefined ? { negation: true } : {}),
  };
}

/** What an `<id>` argument is, read off the verb's noun: the words its --help would say. */
function idDescription(noun: string | undefined, verb: string): string {
  if (noun === undefined) return 'the id';
  // A sale is found by its id or by the reference the shop gave it (transactions/reference.ts).
  return SALE_VERBS.has(verb) ? `the ${noun}'s id, or its reference id` : `the ${noun}'s id`;
}

/** The verbs that find a sale by its id or its reference id (SaleFinder). */
const SALE_VERBS: ReadonlySet<string> = new Set(['transactions get', 'transactions refund', 'transactions capture', 'boletos cancel']);

function argumentInputs(words: readonly string[], described: readonly { name: string; description: string }[], idMeans: string): Input[] {
  return words.map((word, index): Input => {
    const name = word.replace(/^[<[]|(\.\.\.)?[>\]]$/g, '');
    const about = described.find((a) => a.name === word)?.description ?? (name === 'id' ? idMeans : undefined);
    return {
      name: toolWord(name),
      kind: 'argument',
      word: String(index),
      type: word.endsWith('...>') || word.endsWith('...]') ? 'list' : 'string',
      required: word.startsWith('<'),
      description: about ?? name.replace(/-/g, ' '),
    };
  });
}

function inputSchemaOf(input: Input): z.ZodType {
  // An amount or a limit may come as a number: it is written on the command line as the user would.
  const value = z.union([z.string(), z.number()]).transform(String);
  const one = input.choices ? z.enum(input.choices as [string, ...string[]]) : value;
  const schema = input.type === 'boolean' ? z.boolean() : input.type === 'list' ? z.array(one).max(100) : one;
  const described = schema.describe(input.description);
  return input.required ? described : described.optional();
}

/** What a call returns, said in its description (the result contract: result.ts). */
function returnsOf(toolClass: ToolClass, paged: boolean): string {
  if (toolClass.kind === 'money') {
    return 'Returns {outcome, message, transaction?, request?, done_at?, done_by?}: outcome applied, already_done (a repeat: nothing sent, the same answer every time), waiting_for_approval (a person approves request.id; poll approvals_status), unknown (do not retry), refused or failed.';
  }
  if (paged) return `Returns one page: {items, next_cursor?}, at most limit items (default ${DEFAULT_PAGE}, at most ${MAX_PAGE}); pass next_cursor as cursor, with the same arguments, for the next page.`;
  return 'Returns what `-o json` prints for it.';
}

/** The tool a verb of the tree gives, or undefined when it is not one (catalog.ts). */
export function toolOf(command: Command, path: string): ToolSpec | undefined {
  const toolClass = TOOL_VERBS[path];
  const bound = verbOf(command);
  if (!toolClass || !bound) return undefined;
  const { verb } = bound;
  const words = verb.name.split(' ').slice(1);
  const flags = (verb.flags ?? {}) as Record<string, Flag>;
  // A list verb (it reads a window of its list: --window) is read a page a call.
  const paged = flags.window !== undefined;
  const inputs = [
    ...argumentInputs([...words, ...(verb.args ?? []).map((a) => a.name)], verb.args ?? [], idDescription(verb.noun, path)),
    ...Object.entries(flags)
      .filter(([key, spec]) => !WITHHELD_FLAGS.has(key) && !spec.hidden && !(paged && PAGED_FLAGS.has(key)))
      .map(([key, spec]) => flagInput(key, spec)),
  ].map((input) => (toolClass.kind === 'money' && toolClass.requires?.includes(input.name) ? { ...input, required: true } : input));
  const shape = {
    ...Object.fromEntries(inputs.map((input) => [input.name, input.name === 'limit' ? boundedLimit(input.description) : inputSchemaOf(input)])),
    ...(paged ? PAGE_INPUTS : {}),
  };
  const schema = z.strictObject(shape) as unknown as z.ZodType<Record<string, unknown>>;
  const withheld = [...WITHHELD_FLAGS, ...(paged ? ['all'] : [])];
  const examples = (verb.examples ?? []).filter((line) => !withheld.some((key) => new RegExp(`--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}(?![\\w-])`).test(line)));
  const description = [
    verb.description,
    ...(examples.length > 0 ? ['', 'As the command line (each flag is an input, without its dashes, - as _):', ...examples.slice(0, 4).map((line) => `  ${line}`)] : []),
    '',
    returnsOf(toolClass, paged),
  ].join('\n');
  return {
    name: path.replace(/[ -]/g, '_'),
    verb: path,
    class: toolClass,
    description,
    inputs,
    schema,
    inputSchema: z.toJSONSchema(schema, { io: 'input', target: 'draft-7' }) as Record<string, unknown>,
    paged,
  };
}

/**
 * A call's arguments, checked against the tool's inputs: an unknown one, or one of the wrong type,
 * is a UsageError naming it (the verb checks what the values mean).
 */
export function checkArguments(tool: ToolSpec, given: unknown): Record<string, unknown> {
  const parsed = tool.schema.safeParse(given ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    throw new UsageError(`${tool.name} takes no argument "${key}"${didYouMean(key, tool.inputs.map((i) => i.name))}`);
  }
  const field = issue?.path.join('.') || 'arguments';
  // An input not given at all is "required", whatever its type (a union's check says only "Invalid input").
  const key = issue?.path[0];
  const missing = typeof key === 'string' && issue?.path.length === 1 && !(given !== null && typeof given === 'object' && key in given);
  throw new UsageError(`${tool.name}: ${field}: ${missing ? 'required' : (issue?.message ?? 'not valid')}`);
}

/**
 * The command line a call stands for: the verb's words, each flag as `--name=value` (a value never
 * read as another flag), then `--` and the positional arguments (an id starting with `-` stays an id).
 */
export function commandLine(tool: ToolSpec, args: Record<string, unknown>): string[] {
  const flags: string[] = [];
  const positional: string[] = [];
  for (const input of tool.inputs) {
    const value = args[input.name];
    if (value === undefined) continue;
    if (input.kind === 'argument') {
      positional.push(...(Array.isArray(value) ? value.map(String) : [String(value)]));
      continue;
    }
    if (input.type === 'boolean') {
      if (value === true) flags.push(input.word);
      else if (input.negation) flags.push(input.word.replace(/^--/, '--no-'));
      continue;
    }
    for (const one of Array.isArray(value) ? value : [value]) flags.push(`${input.word}=${String(one)}`);
  }
  // A page of a list: where the cursor says, one more than asked (which tells whether there are
  // more). A summary per group is of the whole period asked, not a page of it.
  if (tool.paged && args.group_by === undefined) flags.push(windowWord(pageAsked(tool.name, args)));
  else if (tool.paged && args.cursor !== undefined) throw new UsageError(`${tool.name}: cursor: a summary per group (group_by) comes whole, never in pages; call it without cursor`);
  return [...tool.verb.split(' '), ...flags, ...(positional.length > 0 ? ['--', ...positional] : [])];
}

/** Every tool of the tree: the verbs catalog.ts names, in the tree's order. */
export function toolsOf(program: Command): ToolSpec[] {
  const tools: ToolSpec[] = [];
  const walk = (command: Command, path: string[]) => {
    for (const sub of command.commands) {
      const words = [...path, sub.name()];
      const tool = toolOf(sub, words.join(' '));
      if (tool) tools.push(tool);
      walk(sub, words);
    }
  };
  walk(program, []);
  return tools;
}
