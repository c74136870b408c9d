import { realpathSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Factory } from '../../factory.js';
import { currentProfileName, resolveProfile } from '../../config/profile.js';
import { entryUrl } from '../../entry.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { writeOut } from '../../output/write.js';
import { agentSignal } from '../../platform/agent.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { setup as setupVerb } from './flags.js';
import { parseAllow } from './allow.js';
import { clientEntry, type ClientEntry, type Launch } from './client-config.js';
import { MCP_CLIENTS } from './clients.js';

type Options = OptionsOf<typeof setupVerb>;

/** Where payctl's files are: carried into the entry, so that the server the client starts uses this config, keyring reference and ledger. */
const LOCATING_VARIABLES = ['PAYCTL_HOME', 'XDG_CONFIG_HOME', 'XDG_STATE_HOME'] as const;
/**
 * Variables that override the profile here but are never written into a client's file: a key or a
 * ledger URL's password must not be, and the rest belong with the profile, where the server reads
 * them. The server the client starts uses the profile's own.
 */
const NOT_CARRIED = ['PAYCTL_API_KEY', 'PAYCTL_BASE_URL', 'PAYCTL_MARKETPLACE_ID', 'PAYCTL_SELLER_ID', 'PAYCTL_LEDGER_URL', 'PAYCTL_SETTLE_WINDOW', 'PAYCTL_TIMEZONE'] as const;

export function check(_args: ArgsOf<typeof setupVerb>, options: Options): void {
  if (options.write && options.client === undefined) {
    throw new UsageError(`--write needs --client: which client's file to add the entry to (${MCP_CLIENTS.join(', ')}); without --write all four are printed`);
  }
}

/**
 * `payctl mcp setup`: the entry that makes an AI agent's client start `payctl mcp --profile NAME`,
 * for each client in its own format; with --write, added to that client's file.
 */
export async function run(ctx: Factory, _args: ArgsOf<typeof setupVerb>, options: Options): Promise<void> {
  if (options.write) refuseAgent(ctx.io.env, options.client as string);
  const env = ctx.io.env;
  const cwd = ctx.io.cwd ?? process.cwd();
  const config = await ctx.config.file();
  const name = currentProfileName(config, env, ctx.globals.profile);
  const carried = locatingEnv(env, cwd);
  // The profile as the server will read it: with this shell's locating variables, without its overrides.
  const profile = resolveProfile(config, carried ?? {}, { profile: name });
  const allow = profile.mcpAllow === undefined ? [] : parseAllow(profile.mcpAllow, `profile "${name}" mcp_allow`);
  const launch: Launch = { command: process.execPath, args: [payctlScript(), 'mcp', '--profile', name], ...(carried ? { env: carried } : {}) };
  const place = { cwd, env, platform: process.platform };
  const entries = (options.client ? [options.client] : MCP_CLIENTS).map((client) => clientEntry(client, launch, place));

  const overridden = NOT_CARRIED.filter((variable) => env[variable] !== undefined);
  if (overridden.length > 0) {
    ctx.log.warn(`${overridden.join(', ')} ${overridden.length === 1 ? 'is' : 'are'} set in this shell but never written into a client's file: the server uses profile "${name}"'s own settings`);
  }
  if (!profile.isEmbedded && profile.apiKeySource === undefined) {
    ctx.log.warn(`profile "${name}" holds no API key: the server will fail until 'payctl login --profile ${name}'`);
  }

  if (options.write) await write(ctx, entries[0] as ClientEntry);
  else await print(ctx, entries, options.client !== undefined);
  ctx.log.status(
    `the server runs profile "${name}"${profile.isEmbedded ? ' (the embedded sandbox: no account, no real money)' : ''} with ${
      allow.length === 0
        ? `reading tools only (its mcp_allow lists no money tools; 'payctl config set mcp_allow refunds --profile ${name}' adds the refund tools)`
        : `reading tools and the money tools of ${allow.join(', ')} (its mcp_allow); an agent's money move still waits for a person's approval unless a rule lets it through`
    }`,
  );
}

/** An AI agent's shell never changes which tools an agent's client gets: a person does (exit 4, as a permission). */
function refuseAgent(env: NodeJS.ProcessEnv, client: string): void {
  const agent = agentSignal(env);
  if (agent === undefined) return;
  throw new CliError(
    `an AI agent's shell (${agent}) cannot write an MCP client's configuration: the entry decides which payctl an agent's client starts, with which profile and money tools, so a person adds it, running 'payctl mcp setup --client ${client} --write' on a terminal of their own; nothing was written (without --write the entry is printed)`,
    ExitCode.auth,
  );
}

/** The entries as they go in each file (a person reads and pastes them), or as data with -o json. */
async function print(ctx: Factory, entries: ClientEntry[], one: boolean): Promise<void> {
  const format = await ctx.out.outputFormat();
  if (format !== 'table') {
    await ctx.out.render(one ? entries[0] : entries);
    return;
  }
  const text = entries.map((e) => {
    const lines = [`${e.title}: in ${e.file}${e.command_line ? ', or run the command below it' : ''}`, JSON.stringify({ [e.key]: { [e.name]: e.entry } }, null, 2)];
    if (e.command_line) lines.push(e.command_line);
    return lines.join('\n');
  });
  await writeOut(ctx.io.stdout, `${text.join('\n\n')}\n`);
}

/** Adds the entry to the client's file and says what changed: the path on stdout, the rest on stderr. */
async function write(ctx: Factory, entry: ClientEntry): Promise<void> {
  const { writeEntry } = await import('./client-file.js');
  const written = writeEntry(entry);
  const format = await ctx.out.outputFormat();
  if (format === 'table') await writeOut(ctx.io.stdout, `${written.file}\n`);
  else await ctx.out.render({ ...entry, ...written });
  const others = written.kept.length === 1 ? 'the other server' : `the ${written.kept.length} other servers`;
  const kept = written.kept.length > 0 ? `; kept ${others} (${written.kept.join(', ')}) as ${written.kept.length === 1 ? 'it was' : 'they were'}` : '';
  const said: Record<typeof written.action, string> = {
    created: `created ${written.file} with the ${entry.name} server`,
    added: `added the ${entry.name} server to ${written.file}${kept}`,
    replaced: `replaced the ${entry.name} server in ${written.file}${kept}; it was ${JSON.stringify(written.replaced)}`,
    unchanged: `${written.file} already has this ${entry.name} server; nothing was written`,
  };
  ctx.log.status(said[written.action]);
  if (written.action !== 'unchanged') ctx.log.status(`${entry.title} starts it the next time it starts, or reloads its MCP servers`);
}

/** PAYCTL_HOME, else XDG_CONFIG_HOME and XDG_STATE_HOME, as set here, made absolute; undefined when none is. */
function locatingEnv(env: NodeJS.ProcessEnv, cwd: string): Record<string, string> | undefined {
  // PAYCTL_HOME puts everything under one directory: the XDG ones then play no part.
  const set = env.PAYCTL_HOME ? ['PAYCTL_HOME' as const] : LOCATING_VARIABLES.filter((variable) => env[variable]);
  if (set.length === 0) return undefined;
  return Object.fromEntries(set.map((variable) => [variable, isAbsolute(env[variable] as string) ? (env[variable] as string) : resolve(cwd, env[variable] as string)]));
}

/** This payctl's bin/payctl.js, links followed: what the client runs with node. */
function payctlScript(): string {
  // The bundle's entry is dist/main.js; from the sources (the in-process tests), this file is src/commands/mcp/.
  const entry = entryUrl();
  const script = fileURLToPath(entry ? new URL('../bin/payctl.js', entry) : new URL('../../../bin/payctl.js', import.meta.url));
  try {
    return realpathSync(script);
  } catch (err) {
    throw new CliError(`cannot find payctl's own ${script} (${(err as Error).message}): reinstall payctl`, ExitCode.internal);
  }
}
