import { describe, expect, it } from 'vitest';
import { asRun, examplesOf } from './examples.js';

// How the guides' examples are read (docs/design.md, "Examples that run"): what is an example,
// what is a synopsis, and what each comment says to expect. The examples themselves are run by
// examples-run.test.ts.
const guide = [
  'Run `payctl help sandbox`, or read `payctl export` and `payctl transactions refund`.',
  '',
  '```sh',
  'npm install && payctl sandbox clock   # the install is the reader\'s; what follows it runs',
  'id=$(payctl transactions create --amount 10 \\',
  '  --card-number 4111111111111111 -o json | jq -r .id)   # a sale',
  'payctl transactions get "$id" --fields "id,status"  # its # is not a comment here: "#x"',
  'payctl transactions list [--limit N | --all]',
  'payctl balances get|current',
  'payctl transactions get <id>',
  'payctl reconcile --from 2026-11-01 --to 2026-11-30   # exit 12: a transfer that does not add up',
  'payctl transactions refund "$id"                      # on a terminal: asks first',
  'payctl login --profile live --api-key-stdin < key.txt # with your account: checks the key',
  'npx payctl sandbox serve                              # until Ctrl-C: for other programs',
  'npm test',
  '```',
  '',
  '```text',
  '$ payctl transactions list',
  '```',
  'And `node bin/payctl.js transactions list',
  '--limit 5` wraps.',
].join('\n');
const names = new Set(['export', 'transactions refund', 'transactions', 'help']);
const found = examplesOf('guide.md', guide, (words) => names.has(words.join(' ')));

describe('reading the examples of a guide', () => {
  it('sh commands with their continuations and inline spans that run payctl with an argument, in order; npm and transcripts left out', () => {
    expect(found.map((e) => [e.line, e.command])).toEqual([
      [1, 'payctl help sandbox'],
      [4, 'payctl sandbox clock'],
      [5, 'id=$(payctl transactions create --amount 10 --card-number 4111111111111111 -o json | jq -r .id)'],
      [7, 'payctl transactions get "$id" --fields "id,status"'],
      [8, 'payctl transactions list [--limit N | --all]'],
      [9, 'payctl balances get|current'],
      [10, 'payctl transactions get <id>'],
      [11, 'payctl reconcile --from 2026-11-01 --to 2026-11-30'],
      [12, 'payctl transactions refund "$id"'],
      [13, 'payctl login --profile live --api-key-stdin < key.txt'],
      [14, 'npx payctl sandbox serve'],
      [21, 'node bin/payctl.js transactions list --limit 5'],
    ]);
    expect(found[2]!.sets).toBe('id');
    expect(found.find((e) => e.line === 14)!.block).toBe(3);
    expect(asRun(found.at(-1)!.command)).toBe('payctl transactions list --limit 5');
  });

  it('a placeholder makes a synopsis; a comment says what to expect', () => {
    const of = (line: number) => found.find((e) => e.line === line)!;
    expect([8, 9, 10].map((line) => of(line).notRun)).toEqual(['a placeholder ([--limit N | --all])', 'a placeholder (get|current)', 'a placeholder (<id>)']);
    expect(of(7).notRun).toBeUndefined();
    expect(of(7).expect).toEqual({ kind: 'exit', code: 0 });
    expect(of(11).expect).toEqual({ kind: 'exit', code: 12 });
    expect(of(12)).toMatchObject({ expect: { kind: 'terminal' }, notRun: 'it needs a person at a terminal' });
    expect(of(13)).toMatchObject({ expect: { kind: 'account' }, notRun: 'it needs a live account' });
    expect(of(14)).toMatchObject({ expect: { kind: 'background' } });
    expect(of(14).notRun).toBeUndefined();
  });
});
