import { defineVerb, type Flags } from '../verb.js';
import { listFlags, type ListDate } from './list-flags.js';

/**
 * A resource's group (`payctl buyers`): its help, and the verbs most resources have, declared
 * alike: `list` (the resource's own filters, then the flags every list shares), `get <id>`,
 * `update <id>` and `remove <id>` (remove asks for confirmation, --yes does not), and any other
 * verb on one of them by its id (`byId`). `name` is the command ("buyers"), `noun` what its
 * ids are of ("buyer"): the examples of the verbs by id are written from them, `payctl buyers get
 * <buyer-id>`; a verb by id that is run without it asks for one of them on a terminal.
 */
export function resourceGroup(name: string, noun: string, description: string, examples: readonly string[]) {
  const call = (verb: string) => `payctl ${name} ${verb} <${noun}-id>`;
  return {
    name,
    description,
    examples,

    /**
     * `after`: flags listed after the ones every list shares (a list summed per group: --group-by);
     * `dated`: the field --from/--to bound, the date its table shows (default: its creation).
     */
    list<const Fs extends Flags, const After extends Flags = {}>(description: string, filters: Fs, examples: readonly string[], after?: After, dated?: ListDate) {
      return defineVerb({ name: 'list', description, flags: { ...filters, ...listFlags(dated), ...(after as After) }, examples });
    },

    /**
     * A verb on one of them by its id, `<verb> <id>` (approve, refund, replay…). Its examples: the
     * plain call, then the call followed by each of `more` ("--yes", "-o json | jq .status").
     */
    byId<const V extends string, const Fs extends Flags = {}>(verb: V, description: string, more: readonly string[], flags?: Fs) {
      return defineVerb({ name: `${verb} <id>`, description, noun, ...(flags ? { flags } : {}), examples: [call(verb), ...more.map((tail) => `${call(verb)} ${tail}`)] });
    },

    /** Its examples: the plain call, then the call followed by `more` ("-o json | jq .status"). */
    get(description: string, more: string) {
      return this.byId('get', description, [more]);
    },

    /** Its examples: the call followed by each of `changes` ("--email novo@example.com"). */
    update<const Fs extends Flags>(description: string, flags: Fs, changes: readonly string[]) {
      return defineVerb({ name: 'update <id>', description, noun, flags, examples: changes.map((change) => `${call('update')} ${change}`) });
    },

    /**
     * Its examples: the plain call (which asks) then with --yes, or (`yesFirst`) with --yes then the
     * one that asks. `flags`: a removal's own (a cancellation that moves money waits like one).
     */
    remove<const Fs extends Flags = {}>(description: string, { yesFirst = false, flags }: { yesFirst?: boolean; flags?: Fs } = {}) {
      const examples = yesFirst ? [`${call('remove')} --yes`, `${call('remove')}                # asks first`] : [call('remove'), `${call('remove')} --yes`];
      return defineVerb({ name: 'remove <id>', description, noun, ...(flags ? { flags } : {}), examples });
    },
  };
}
