// Whether an AI agent's shell runs payctl: the variables agents set in the shells they run (as the
// Stripe CLI reads them), or PAYCTL_ACTOR=agent. An agent is a user with less trust: it is never
// prompted (it gets the error naming what is missing instead) and never confirms for a person.

/** Variables whose presence says an agent's shell: set to anything but the empty string. */
const AGENT_VARIABLES = ['CLAUDECODE', 'CURSOR_AGENT', 'GEMINI_CLI', 'AI_AGENT'];
/** Prefixes of variables only an agent's shell has (Codex sets several: CODEX_SANDBOX, CODEX_THREAD_ID…). */
const AGENT_PREFIXES = ['CODEX_'];

/** What says an agent runs this ("CLAUDECODE is set", "PAYCTL_ACTOR=agent"), or undefined for a person or a script. */
export function agentSignal(env: NodeJS.ProcessEnv): string | undefined {
  if (env.PAYCTL_ACTOR?.trim().toLowerCase() === 'agent') return 'PAYCTL_ACTOR=agent';
  const set = (name: string) => env[name] !== undefined && env[name] !== '';
  const named = AGENT_VARIABLES.find(set) ?? Object.keys(env).find((name) => AGENT_PREFIXES.some((prefix) => name.startsWith(prefix)) && set(name));
  return named === undefined ? undefined : `${named} is set`;
}
