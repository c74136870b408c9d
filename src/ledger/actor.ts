// Who acts on the ledger: the operator as the ledger records them (the OS user and host, with the
// display name of the profile's operator_name), and how much they are trusted. A person at a
// terminal may approve a request; a script (prompts off) acts alone only within the rules; an AI
// agent's shell is an agent, whatever else it is.
import { agentSignal } from '../platform/agent.js';
import { currentOwner } from '../platform/owner.js';

export type ActorKind = 'person' | 'script' | 'agent';

export interface Actor {
  /** `user@host`: what tells two operators apart (a requester never approves their own request). */
  holder: string;
  /** The profile's operator_name, for people reading the trail. */
  name?: string;
  kind: ActorKind;
  /** What made it an agent ("CLAUDECODE is set", "PAYCTL_ACTOR=agent", "payctl mcp"). */
  signal?: string;
  /** The MCP client an agent acts through (`claude-code`), as it named itself: set by `payctl mcp`. */
  client?: string;
  /** The `payctl mcp` session (one server process) an agent acts in: what a `--per session` limit counts. */
  session?: string;
}

/** What the person at an agent's MCP client is asked to confirm: the move in words, and its amount. */
export interface ClientConfirmation {
  summary: string;
  amountCents: number | null;
  currency?: string | null | undefined;
}

/**
 * Asks the person at an agent's MCP client to confirm a move (MCP elicitation): `accept` only when
 * they confirmed it; `decline`, `cancel`, no answer in time, or a client that cannot ask all send
 * nothing.
 */
export type ConfirmAtClient = (ask: ClientConfirmation) => Promise<'accept' | 'decline' | 'cancel' | 'unsupported'>;

/** An agent acting through `payctl mcp`: the client it named, and how its person confirms (when the client can ask). */
export interface AgentClient {
  name: string;
  confirm?: ConfirmAtClient;
  /** This `payctl mcp` process's session id (`mcp_` and letters): the intents it writes record it. */
  session?: string;
}

/**
 * This process's actor: an agent when its environment says so (or it serves an MCP `client`), a
 * script when nobody can be asked, else a person.
 */
export function actorOf(env: NodeJS.ProcessEnv, promptsOff: boolean, name?: string, client?: AgentClient): Actor {
  if (client) return { holder: currentOwner().holder, ...(name ? { name } : {}), kind: 'agent', signal: 'payctl mcp', client: client.name, ...(client.session ? { session: client.session } : {}) };
  const signal = agentSignal(env);
  const kind: ActorKind = signal !== undefined ? 'agent' : promptsOff ? 'script' : 'person';
  return { holder: currentOwner().holder, ...(name ? { name } : {}), kind, ...(signal !== undefined ? { signal } : {}) };
}

/** What the ledger records of an agent: its MCP client's name, or the shell's signal (`shell: CLAUDECODE is set`); undefined for anyone else. */
export function agentOf(actor: Pick<Actor, 'kind' | 'client' | 'signal'>): string | undefined {
  if (actor.kind !== 'agent') return undefined;
  return actor.client ?? (actor.signal ? `shell: ${actor.signal}` : undefined);
}

/**
 * An operator and the agent that acted as them, for a table's cell: who first, since a narrow
 * cell is cut at its end (`ana@caixa-2, agent claude-code`, `ana@caixa-2, an agent's shell`).
 */
export function withAgent(who: string, agent: string): string {
  return agent.startsWith('shell: ') ? `${who}, an agent's shell` : `${who}, agent ${agent}`;
}

/** Who wrote a record, as tables name them: `Ana Souza (ana@caixa-2)`, or `ana@caixa-2` when no name was set. */
export function operatorLabel(who: { holder: string; name?: string | null | undefined }): string {
  return who.name ? `${who.name} (${who.holder})` : who.holder;
}

/** An actor as people read it: `Ana Souza (ana@caixa-2)`, `ana@caixa-2`, `an agent as Ana Souza (ana@caixa-2)`. */
export function describeActor(actor: Pick<Actor, 'holder' | 'name' | 'kind' | 'client'>): string {
  const who = operatorLabel(actor);
  if (actor.kind !== 'agent') return who;
  return actor.client ? `an agent (${actor.client}) as ${who}` : `an agent as ${who}`;
}
