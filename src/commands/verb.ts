import { Command, Option } from 'commander';
import type { Factory } from '../factory.js';
import type { GlobalOptions } from '../globals.js';
import { examples } from './shared/help.js';

// How the command tree is declared and built, kept apart from cli.ts so that the groups, which
// cli.ts imports, never import it back.
//
// A verb is declared as data (defineVerb) and its flags' types are read off that data, so its
// implementation, loaded only when it runs, takes `OptionsOf<typeof verb>` instead of reading an
// untyped record. Each group keeps its verbs' definitions in one flags.ts rather than a file per
// verb: a group's verbs share flag sets and examples and are read (and reviewed against --help)
// together, and that file is what a start-up naming the group loads anyway; it declares the
// group's own help too, under the group's name. The group itself, which binds each verb to its
// lazily loaded implementation (`bindGroup`, a loader for each verb by the name flags.ts exports it
// under), is verbs.ts: the implementation imports the type of its definition from flags.ts, so
// nothing imports back the file that loads it.

/** A verb's implementation, loaded only when that verb runs. */
export interface VerbModule<A extends readonly string[] = string[], O = object> {
  /**
   * Its flag rules: what its arguments and flags allow together (an id or --file, not both; one
   * amount, read strictly), a UsageError (exit 2) when broken. Checked before it runs, from the
   * command line alone (no Factory, nothing read or sent): a test reaches them through a RunF.
   */
  check?(args: A, options: O): void;
  run(ctx: Factory, args: A, options: O): Promise<void>;
}

/** What a verb would run with, once commander has parsed its command line and its flag rules have passed. */
export interface VerbCall {
  /** As typed, without aliases: "transactions refund". */
  readonly verb: string;
  readonly args: string[];
  readonly options: Record<string, unknown>;
  /** The program's options, as it would read them (--yes, --dry-run, --output). */
  readonly globals: GlobalOptions;
  /** What it would ask for on a terminal (or name, exit 2, elsewhere) before running. */
  readonly missing: Missing[];
}

/**
 * A replacement for every verb's run (gh's `runF`): the command tree built with one parses a
 * command line exactly as a user's is parsed, checks the verb's flag rules, and hands the RunF
 * what the verb would run with, with no Factory and nothing sent (docs/design.md, "Testing a
 * verb's flag rules").
 */
export type RunF = (call: VerbCall) => void | Promise<void>;

/** Turns a verb (its definition, and the loader of its implementation) into the action commander calls. */
export type ActionFactory = (bound: BoundVerb) => (...args: unknown[]) => Promise<void>;

// ---- Flags -------------------------------------------------------------------------------------

/** The long name of a flag string: "-f, --raw-field <key=value>" → "raw-field". */
type LongName<F extends string> = F extends `${string}--${infer Rest}` ? (Rest extends `${infer Name} ${string}` ? Name : Rest) : never;

/** What commander stores for a flag string without a parser. */
type ParsedValue<F extends string> = F extends `${string}<${string}...>${string}`
  ? string[]
  : F extends `${string}[${string}...]${string}`
    ? string[] | true
    : F extends `${string}<${string}>${string}`
      ? string
      : F extends `${string}[${string}]${string}`
        ? string | true
        : boolean;

/** `--no-x` is true unless given, so it always has a value. */
type Negatable<F extends string> = LongName<F> extends `no-${string}` ? true : false;

/** A flag as data: its commander flag string and help, and `V`, the type of its value. `P`: whether it always has one. */
export interface Flag<F extends string = string, V = unknown, P extends boolean = boolean> {
  readonly flags: F;
  readonly description: string | undefined;
  readonly parse?: (value: string, previous: never) => unknown;
  readonly default?: unknown;
  readonly choices?: readonly string[];
  /** Accepted but not shown in help (an old name kept working). */
  readonly hidden?: boolean;
  /** The question that asks for it on a terminal when it is required and missing (default: its description). */
  readonly ask?: string;
  /** Another flag that gives the same value another way (--amount-cents for --amount): either one will do. */
  readonly alternative?: string;
  /** A `--x` flag's `--no-x` too, with this help: the value is true, false, or undefined when neither is given. */
  readonly negation?: string;
  /** Only for the types: never set. */
  readonly value?: V;
  readonly present?: P;
}

/** Settings any flag may have: see Flag. */
type FlagSettings = { hidden?: boolean; ask?: string; alternative?: string; negation?: string };

/** A flag: `flag('--payer-taxpayer-id <cpf|cnpj>', '…')` is a `string | undefined` option. */
export function flag<const F extends string>(flags: F, description?: string, settings?: FlagSettings): Flag<F, ParsedValue<F>, Negatable<F>>;
/** A flag with a value when not given. */
export function flag<const F extends string>(flags: F, description: string | undefined, settings: { default: ParsedValue<F> } & FlagSettings): Flag<F, ParsedValue<F>, true>;
/** A flag taking one of `choices`, typed as their union. */
export function flag<const F extends string, const C extends readonly string[], const D extends C[number] | undefined = undefined>(
  flags: F,
  description: string | undefined,
  settings: { choices: C; default?: D } & FlagSettings,
): Flag<F, C[number], D extends undefined ? Negatable<F> : true>;
/** A flag whose value goes through `parse` (each time it is given, with what it gave before). */
export function flag<const F extends string, T, const D extends T | undefined = undefined>(
  flags: F,
  description: string | undefined,
  settings: { parse: (value: string, previous: T) => T; default?: D } & FlagSettings,
): Flag<F, T, D extends undefined ? false : true>;
export function flag(flags: string, description?: string, settings: object = {}): Flag {
  return { flags, description, ...settings };
}

export type Flags = Readonly<Record<string, Flag>>;

/**
 * A verb's flags when it needs every one of them: `...requiring({ to: flag(…) })` is those flags
 * and their `required` list (shown first, under "Required:"), each flag named once.
 */
export function requiring<const Fs extends Flags>(flags: Fs): { flags: Fs; required: (keyof Fs & string)[] } {
  return { flags, required: Object.keys(flags) as (keyof Fs & string)[] };
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The options a set of flags gives a verb, as commander hands them over. */
export type FlagValues<Fs extends Flags> = Simplify<
  { -readonly [K in keyof Fs as Fs[K] extends Flag<string, unknown, true> ? K : never]: NonNullable<Fs[K]['value']> } & {
    -readonly [K in keyof Fs as Fs[K] extends Flag<string, unknown, true> ? never : K]?: NonNullable<Fs[K]['value']>;
  }
>;

// ---- Positional arguments ----------------------------------------------------------------------

/** A positional argument with its own help line (the others are named in the verb's name). */
export interface Arg<N extends string = string> {
  readonly name: N;
  readonly description: string;
}

export function arg<const N extends string>(name: N, description: string): Arg<N> {
  return { name, description };
}

type Words<S extends string> = S extends `${infer Head} ${infer Rest}` ? [Head, ...Words<Rest>] : S extends '' ? [] : [S];

/** The arguments a verb's run gets: commander's values, left to right, a variadic one spread, missing ones left out. */
type ArgTuple<T extends readonly string[]> = T extends readonly [infer Head extends string, ...infer Rest extends string[]]
  ? Head extends `<${string}...>`
    ? [string, ...string[]]
    : Head extends `[${string}...]`
      ? string[]
      : Head extends `<${string}>`
        ? [string, ...ArgTuple<Rest>]
        : [] | [string, ...ArgTuple<Rest>]
  : [];

type ArgNames<As extends readonly Arg[]> = { [I in keyof As]: As[I] extends Arg<infer N> ? N : never };

// ---- Asking for what is missing ----------------------------------------------------------------

/**
 * How a positional argument is asked for on a terminal when it is missing: what it names (the
 * ids of a `noun` are offered from its latest, or typed), the question, and which of the latest fit.
 */
export interface Ask {
  readonly noun?: string;
  readonly label?: string;
  /** The list query that keeps the latest that fit (a capture's: `{ status: 'pre_authorized' }`). */
  readonly query?: Readonly<Record<string, string>>;
}

/** A required argument or flag a command line left out. */
export type Missing = { kind: 'argument'; name: string; ask: Ask } | { kind: 'flag'; key: string; flag: Flag; name: string };

/** "--amount" of "--amount <amount>". */
export const longFlag = (spec: Flag): string => /--[\w-]+/.exec(spec.flags)?.[0] ?? spec.flags;

/** Whether a flag was given a value (a repeatable one, at least once): `--name ""` gives none. */
const isGiven = (value: unknown) => value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0);

/**
 * What a verb needs that a command line left out: its required arguments past the `given` ones,
 * then its required flags (one of a flag and its alternative will do), unless the verb asks for
 * those itself. Read off the definition alone, so nothing is loaded when nothing is missing.
 */
export function missingOf(verb: AnyVerb, given: number, options: Record<string, unknown>): Missing[] {
  const names = [...verb.name.split(' ').slice(1), ...(verb.args ?? []).map((a: Arg) => a.name)];
  const missing: Missing[] = [];
  names.forEach((word, index) => {
    const required = /^<([^.>]+)>$/.exec(word);
    if (!required || index < given) return;
    const name = required[1] as string;
    const ask = verb.asks?.[name] ?? (name === 'id' ? { noun: verb.noun } : name.endsWith('-id') ? { noun: name.slice(0, -3) } : {});
    missing.push({ kind: 'argument', name: word, ask });
  });
  if (verb.walkThrough) return missing;
  const flags: Flags = verb.flags ?? {};
  for (const key of (verb.required ?? []) as string[]) {
    const spec = flags[key] as Flag;
    if (isGiven(options[key]) || (spec.alternative !== undefined && isGiven(options[spec.alternative]))) continue;
    const other = spec.alternative === undefined ? undefined : flags[spec.alternative];
    missing.push({ kind: 'flag', key, flag: spec, name: other ? `${longFlag(spec)} (or ${longFlag(other)})` : longFlag(spec) });
  }
  return missing;
}

// ---- Verbs and groups --------------------------------------------------------------------------

export interface VerbSpec<N extends string, As extends readonly Arg[], Fs extends Flags> {
  /** As commander takes it: the verb's name, then its arguments ("get <id>", "refund [id]"). */
  readonly name: N;
  readonly aliases?: readonly string[];
  readonly description: string;
  /** Arguments with a help line, after those in `name`. */
  readonly args?: As;
  readonly flags?: Fs;
  /** Flags listed first, under "Required:", in this order (the verb checks them itself: a prompt may still ask). */
  readonly required?: readonly (keyof Fs & string)[];
  readonly examples?: readonly string[];
  /** Help after the examples, a blank line between. */
  readonly notes?: string;
  /** What its `<id>` argument is the id of ("buyer"): asked for as one of those when it is missing. */
  readonly noun?: string;
  /** How its other positional arguments are asked for when missing, by name ("key", "query"). */
  readonly asks?: Readonly<Record<string, Ask>>;
  /**
   * It asks for what its flags leave out itself, in an order of its own (a walk-through): its
   * required flags are not asked for before it runs.
   */
  readonly walkThrough?: boolean;
  /** What its group runs when named alone (`payctl mcp` serves): the group's words then reach this verb. */
  readonly isDefault?: boolean;
}

export interface VerbDef<N extends string = string, As extends readonly Arg[] = readonly Arg[], Fs extends Flags = Flags> extends VerbSpec<N, As, Fs> {
  readonly kind: 'verb';
}

export function defineVerb<const N extends string, const As extends readonly Arg[] = [], const Fs extends Flags = {}>(spec: VerbSpec<N, As, Fs>): VerbDef<N, As, Fs> {
  return { kind: 'verb', ...spec };
}

/** The options a verb's run is handed. */
export type OptionsOf<V> = V extends VerbDef<string, any, infer Fs> ? FlagValues<Fs> : never;

/** The positional arguments a verb's run is handed. */
export type ArgsOf<V> = V extends VerbDef<infer N, infer As, any> ? ArgTuple<[...Words<N> extends [string, ...infer Rest extends string[]] ? Rest : [], ...ArgNames<As>]> : never;

// `required` names keys of its flags, so a verb with some flags is no VerbDef<…, Flags>: any verb is this.
type AnyVerb = VerbDef<string, readonly Arg[], any>;

/** A verb and the implementation that runs it, loaded only then. */
export interface BoundVerb {
  readonly verb: AnyVerb;
  readonly load: () => Promise<VerbModule>;
}

/** Binds a verb to its implementation, whose run must take the verb's arguments and options. */
export function lazy<V extends AnyVerb>(verb: V, load: () => Promise<VerbModule<ArgsOf<V>, OptionsOf<V>>>): BoundVerb {
  return { verb, load: load as unknown as () => Promise<VerbModule> };
}

/** What loads a verb's implementation: its run must take the verb's arguments and options. */
type Loader<V> = V extends AnyVerb ? () => Promise<VerbModule<ArgsOf<V>, OptionsOf<V>>> : never;

/** Loaders for verbs of a flags.ts module (`import * as verb`), by the name each verb is exported under. */
export type Loaders<Vs> = { readonly [K in keyof Vs as Vs[K] extends AnyVerb ? K : never]?: Loader<Vs[K]> };

/** Binds each verb `loaders` names, in that order, to its implementation. */
export function bind<Vs extends object>(verbs: Vs, loaders: Loaders<Vs>): BoundVerb[] {
  return Object.entries(loaders).map(([key, load]) => ({ verb: verbs[key as keyof Vs] as AnyVerb, load: load as () => Promise<VerbModule> }));
}

/** Loaders for verbs one module implements, each by a run of its own: `{ remove: 'runRemove' }`. */
export function runs<M, const E extends Record<string, keyof M>>(load: () => Promise<M>, exported: E): { [K in keyof E]: () => Promise<{ run: M[E[K]] }> } {
  return Object.fromEntries(Object.entries(exported).map(([verb, name]) => [verb, () => load().then((m) => ({ run: m[name as keyof M] }))])) as { [K in keyof E]: () => Promise<{ run: M[E[K]] }> };
}

export interface GroupDef {
  readonly kind: 'group';
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly description: string;
  readonly examples?: readonly string[];
  readonly verbs: readonly (BoundVerb | GroupDef)[];
}

/** A group's help, which its flags.ts declares with its verbs' (verbs.ts binds the verbs to it). */
export type GroupHelp = Omit<GroupDef, 'kind' | 'verbs'>;

/** A group's help as its flags.ts declares it: `groupHelp('ledger', 'The ledger of money moves…', ['payctl ledger list', …])`. */
export function groupHelp(name: string, description: string, examples: readonly string[], aliases?: readonly string[]): GroupHelp {
  return { name, ...(aliases ? { aliases } : {}), description, examples };
}

export function defineGroup(group: Omit<GroupDef, 'kind'>): GroupDef {
  return { kind: 'group', ...group };
}

/**
 * A group as a verbs.ts declares it: the help its flags.ts declares (by groupHelp, or by a
 * resourceGroup, which builds verbs too: only its help is taken), the verbs there that `loaders`
 * names, each bound in that order to its implementation, then the groups within it.
 */
export function bindGroup<Vs extends object>({ name, aliases, description, examples }: GroupHelp, verbs: Vs, loaders: Loaders<Vs>, subgroups: readonly GroupDef[] = []): GroupDef {
  return defineGroup({ name, ...(aliases ? { aliases } : {}), description, ...(examples ? { examples } : {}), verbs: [...bind(verbs, loaders), ...subgroups] });
}

// ---- Into commander ----------------------------------------------------------------------------

/** Commander's options for a set of flags (`where` names their verb in a mistake's message). */
function toOptions(flags: Flags, where = ''): Option[] {
  return Object.entries(flags).flatMap(([key, spec]) => {
    const option = new Option(spec.flags, spec.description);
    if (spec.parse) option.argParser(spec.parse as (value: string, previous: unknown) => unknown);
    if (spec.default !== undefined) option.default(spec.default);
    if (spec.choices) option.choices(spec.choices);
    if (spec.hidden) option.hideHelp();
    // The key is the name the implementation reads: it must be the one commander stores under.
    if (option.attributeName() !== key) throw new Error(`flag ${spec.flags}${where} is declared as ${key}, not ${option.attributeName()}`);
    // Declared after its flag, `--no-x` leaves the value undefined when neither is given.
    return spec.negation === undefined ? [option] : [option, new Option(spec.flags.replace(/^--/, '--no-'), spec.negation)];
  });
}

function addFlags(command: Command, verb: AnyVerb): void {
  const keys = Object.keys(verb.flags ?? {});
  const options = toOptions(verb.flags ?? {}, ` of "${verb.name}"`);
  const first = (verb.required ?? []).map((key: string) => options[keys.indexOf(key)] as Option);
  for (const option of first) option.helpGroup('Required:');
  for (const option of [...first, ...options.filter((o) => !first.includes(o))]) command.addOption(option);
}

function describe(command: Command, what: { aliases?: readonly string[]; description: string; examples?: readonly string[]; notes?: string }): void {
  if (what.aliases) command.aliases(what.aliases);
  command.description(what.description);
  if (what.examples) command.addHelpText('after', `${examples(...what.examples)}${what.notes === undefined ? '' : `\n${what.notes}`}`);
}

/** `<id>` as commander's optional `[id]`: see addVerb. */
const registeredOptional = (word: string) => word.replace(/^<(.*)>$/, '[$1]');

/** A verb's arguments as its definition writes them (`<id>` for a required one), for its help. */
const shownArguments = new WeakMap<Command, readonly string[]>();

/** The verb each command of the tree was built from. */
const verbs = new WeakMap<Command, BoundVerb>();

/** The verb a command of the tree was built from (its flags and help as data), or undefined for a group. */
export function verbOf(command: Command): BoundVerb | undefined {
  return verbs.get(command);
}

/**
 * A command as a group's (or the program's) help lists it: its name, `[options]` when it has
 * any, and its arguments as its definition writes them, required ones in `<…>` (commander's own
 * term would show them as it was given them, optional: see addVerb). Set with configureHelp.
 */
export function subcommandTerm(command: Command): string {
  const alias = command.aliases()[0];
  const args = shownArguments.get(command) ?? command.registeredArguments.map((a) => (a.required ? `<${a.name()}${a.variadic ? '...' : ''}>` : `[${a.name()}${a.variadic ? '...' : ''}]`));
  return [`${command.name()}${alias ? `|${alias}` : ''}`, ...(command.options.length > 0 ? ['[options]'] : []), ...args].join(' ');
}

/**
 * Adds a verb to `parent`: its arguments, flags, help and lazily loaded action. Its help and usage
 * say which arguments are required, but commander is given each as optional: a command line
 * without them is let through to the action, which asks for them on a terminal or names them and
 * says why it could not ask (missingOf). Commander would refuse it first, with neither.
 */
export function addVerb(parent: Command, bound: BoundVerb, action: ActionFactory): Command {
  const { verb } = bound;
  const [name = '', ...words] = verb.name.split(' ');
  const command = new Command(name).copyInheritedSettings(parent);
  parent.addCommand(command, verb.isDefault ? { isDefault: true } : {});
  verbs.set(command, bound);
  for (const word of words) command.argument(registeredOptional(word));
  describe(command, verb);
  for (const a of verb.args ?? []) command.argument(registeredOptional(a.name), a.description);
  const shown = [...words, ...(verb.args ?? []).map((a: Arg) => a.name)];
  shownArguments.set(command, shown);
  command.usage(['[options]', ...shown].join(' '));
  addFlags(command, verb);
  return command.action(action(bound));
}

/**
 * Adds a group to `parent`; its verbs only `withVerbs`: every group is listed (for help and "did you
 * mean"), but only the one the command line names needs its verbs built.
 */
export function addGroup(parent: Command, group: GroupDef, action: ActionFactory, withVerbs = true): Command {
  const command = parent.command(group.name);
  describe(command, group);
  if (!withVerbs) return command;
  for (const entry of group.verbs) {
    if ('kind' in entry) addGroup(command, entry, action);
    else addVerb(command, entry, action);
  }
  return command;
}
