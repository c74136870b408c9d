import { Command } from 'commander';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { addGroup, arg, bind, bindGroup, defineGroup, defineVerb, flag, groupHelp, lazy, missingOf, requiring, runs, type ArgsOf, type OptionsOf, type VerbModule } from '../../src/commands/verb.js';
import { collect } from '../../src/commands/shared/input.js';
import { buildProgram } from '../../src/cli.js';
import type { IO } from '../../src/io.js';

const sample = defineVerb({
  name: 'sample <id> [more...]',
  description: 'A verb with one flag of each kind',
  args: [],
  flags: {
    payerTaxpayerId: flag('--payer-taxpayer-id <cpf|cnpj>', 'a value'),
    full: flag('--full', 'a switch'),
    capture: flag('--no-capture', 'a negated switch'),
    metadata: flag('--metadata <key=value>', 'repeatable', { parse: collect }),
    usage: flag('--usage <usage>', 'one of two', { choices: ['single_use', 'reusable'], default: 'single_use' }),
    kind: flag('--kind <kind>', 'one of two, no default', { choices: ['a', 'b'] }),
    ids: flag('--ids <id...>', 'variadic'),
    onBehalfOf: flag('--on-behalf-of <seller-id>', undefined, { hidden: true }),
  },
  required: ['full'],
  examples: ['payctl sample 1 --full'],
});

const described = defineVerb({ name: 'api', description: 'Positional arguments with help', args: [arg('[method]', 'the method'), arg('[path]', 'the path')] });

describe('defineVerb', () => {
  it("types a verb's options from its flags", () => {
    expectTypeOf<OptionsOf<typeof sample>>().toEqualTypeOf<{
      payerTaxpayerId?: string;
      full?: boolean;
      capture: boolean;
      metadata?: string[];
      usage: 'single_use' | 'reusable';
      kind?: 'a' | 'b';
      ids?: string[];
      onBehalfOf?: string;
    }>();
    expectTypeOf<ArgsOf<typeof sample>>().toEqualTypeOf<[string, ...string[]]>();
    expectTypeOf<ArgsOf<typeof described>>().toEqualTypeOf<[] | [string] | [string, string]>();
    expectTypeOf<OptionsOf<typeof described>>().toEqualTypeOf<{}>();
  });

  it('builds the commander verb the definition describes, required flags first', async () => {
    const program = new Command('payctl').exitOverride();
    let seen: unknown[] = [];
    const module: VerbModule<ArgsOf<typeof sample>, OptionsOf<typeof sample>> = {
      run: async (_ctx, args, options) => {
        seen = [args, options];
      },
    };
    const group = defineGroup({ name: 'things', aliases: ['t'], description: 'Things', examples: ['payctl things sample 1'], verbs: [lazy(sample, async () => module)] });
    addGroup(program, group, ({ load }) => async (...args: unknown[]) => {
      const command = args.at(-1) as Command;
      await (await load()).run(undefined as never, args.slice(0, -2).flat().filter((a) => a !== undefined) as string[], command.opts());
    });
    const verb = program.commands[0]?.commands[0] as Command;
    expect(verb.options.map((o) => o.long)).toEqual(['--full', '--payer-taxpayer-id', '--no-capture', '--metadata', '--usage', '--kind', '--ids', '--on-behalf-of']);
    expect(verb.options[0]?.helpGroupHeading).toBe('Required:');
    expect(verb.helpInformation()).not.toContain('--on-behalf-of');
    await program.parseAsync(['t', 'sample', '7', '8', '--metadata', 'a=1', '--metadata', 'b=2', '--no-capture'], { from: 'user' });
    expect(seen).toEqual([['7', '8'], { capture: false, metadata: ['a=1', 'b=2'], usage: 'single_use' }]);
    // The help says <id> is required, but commander lets a command line without it through to the
    // action, which asks for it (or names it).
    expect(verb.helpInformation()).toMatch(/^Usage: payctl things sample \[options\] <id> \[more\.\.\.\]$/m);
    await program.parseAsync(['t', 'sample', '--full'], { from: 'user' });
    expect(seen).toEqual([[], { full: true, capture: true, usage: 'single_use' }]);
  });

  it('tells what a command line leaves out: required arguments past those given, then required flags', () => {
    const verb = defineVerb({
      name: 'pay <transaction-id> <rule-id> [note]',
      description: 'x',
      noun: 'plan',
      asks: { 'rule-id': { label: 'Rule' } },
      flags: { amount: flag('--amount <amount>', 'x', { alternative: 'amountCents' }), amountCents: flag('--amount-cents <cents>', 'x'), to: flag('--to <email>', 'x'), event: flag('--event <type>', 'x', { parse: collect }) },
      required: ['amount', 'to', 'event'],
    });
    expect(missingOf(verb, 0, { event: [] })).toEqual([
      { kind: 'argument', name: '<transaction-id>', ask: { noun: 'transaction' } },
      { kind: 'argument', name: '<rule-id>', ask: { label: 'Rule' } },
      { kind: 'flag', key: 'amount', flag: verb.flags?.amount, name: '--amount (or --amount-cents)' },
      { kind: 'flag', key: 'to', flag: verb.flags?.to, name: '--to' },
      { kind: 'flag', key: 'event', flag: verb.flags?.event, name: '--event' },
    ]);
    // One of a pair will do; an empty value is none.
    expect(missingOf(verb, 2, { amountCents: '100', to: 'a@b.c', event: ['x'] })).toEqual([]);
    expect(missingOf(verb, 2, { amount: '1', to: '', event: ['x'] }).map((m) => m.name)).toEqual(['--to']);
    // <id> is an id of the verb's noun; a verb that walks through its own questions is asked only its arguments.
    expect(missingOf(defineVerb({ name: 'get <id>', description: 'x', noun: 'plan' }), 0, {})).toEqual([{ kind: 'argument', name: '<id>', ask: { noun: 'plan' } }]);
    expect(missingOf({ ...verb, walkThrough: true }, 1, {}).map((m) => m.name)).toEqual(['<rule-id>']);
  });

  it('leaves a group without its verbs unless asked for them', () => {
    const program = new Command('payctl');
    addGroup(program, defineGroup({ name: 'things', description: 'Things', verbs: [lazy(sample, async () => ({ run: async () => {} }))] }), () => async () => {}, false);
    expect(program.commands[0]?.commands).toEqual([]);
  });

  it("binds the verbs a map names, in its order, one module's runs by name", async () => {
    const verbs = { described, sample, other: 'not a verb' };
    const runSample = async (_ctx: unknown, _args: ArgsOf<typeof sample>, _options: OptionsOf<typeof sample>) => {};
    const runDescribed = async () => {};
    const bound = bind(verbs, { sample: async () => ({ run: runSample }), ...runs(async () => ({ runDescribed }), { described: 'runDescribed' }) });
    expect(bound.map((b) => b.verb)).toEqual([sample, described]);
    expect((await bound[1]?.load())?.run).toBe(runDescribed);
    // @ts-expect-error: other is no verb
    bind(verbs, { other: async () => ({ run: runDescribed }) });
    // @ts-expect-error: sample's run takes its own arguments, not described's
    bind(verbs, { described: async () => ({ run: runSample }) });
  });

  it('requires every flag `requiring` declares, each listed first, its options typed as any flags', () => {
    const send = defineVerb({ name: 'send <id>', description: 'x', ...requiring({ to: flag('--to <email>', 'whom'), cc: flag('--cc <email>', 'whom else') }) });
    expect(send.required).toEqual(['to', 'cc']);
    expectTypeOf<OptionsOf<typeof send>>().toEqualTypeOf<{ to?: string; cc?: string }>();
  });

  it("builds a group from its flags.ts's help and verbs, the help alone taken from a builder of verbs", () => {
    const help = { ...groupHelp('things', 'Things', ['payctl things sample 1'], ['t']), verbOf: () => sample };
    const group = bindGroup(help, { sample, described }, { sample: async () => ({ run: async () => {} }) }, [defineGroup({ name: 'inner', description: 'Inner', verbs: [] })]);
    expect(Object.keys(group).sort()).toEqual(['aliases', 'description', 'examples', 'kind', 'name', 'verbs']);
    expect(group.verbs.map((v) => ('kind' in v ? v.name : v.verb.name))).toEqual(['sample <id> [more...]', 'inner']);
  });

  it('refuses a flag declared under another name than commander stores it', () => {
    const wrong = defineVerb({ name: 'wrong', description: 'x', flags: { payer: flag('--payer-id <id>', 'x') } });
    expect(() => addGroup(new Command(), defineGroup({ name: 'g', description: 'g', verbs: [lazy(wrong, async () => ({ run: async () => {} }))] }), () => async () => {})).toThrow(/declared as payer, not payerId/);
  });
});

describe('buildProgram', () => {
  const io = { stdout: process.stdout, stderr: process.stderr } as unknown as IO;
  const verbsOf = (program: Command) => Object.fromEntries(program.commands.map((c) => [c.name(), c.commands.length]));

  it('builds only the verbs of the group the command line names, by name or alias', () => {
    for (const argv of [['transactions', 'list'], ['tx', 'list'], ['-o', 'json', 'tx', 'get', 'x']]) {
      const built = verbsOf(buildProgram({ io }, argv));
      expect(built.transactions, argv.join(' ')).toBe(8);
      expect(built.buyers).toBe(0);
      expect(built.sandbox).toBe(0);
      // The login verbs and the profiles group are always there.
      expect(built.profiles).toBe(3);
    }
    expect(verbsOf(buildProgram({ io }, ['sandbox', 'clock'])).sandbox).toBe(6);
  });

  it('builds every verb for the whole tree, each flag under the name its verb reads', () => {
    const built = verbsOf(buildProgram({ io }));
    expect(built.buyers).toBe(7);
    expect(built.transactions).toBe(8);
  });
});
