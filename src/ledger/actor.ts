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
  /** What made it an agent ("CLAUDECODE is set", "PAYCTL_ACTOR=agent"). */
  signal?: string;
}

/** This process's actor: an agent when its environment says so, a script when nobody can be asked, else a person. */
export function actorOf(env: NodeJS.ProcessEnv, promptsOff: boolean, name?: string): Actor {
  const signal = agentSignal(env);
  const kind: ActorKind = signal !== undefined ? 'agent' : promptsOff ? 'script' : 'person';
  return { holder: currentOwner().holder, ...(name ? { name } : {}), kind, ...(signal !== undefined ? { signal } : {}) };
}

/** Who wrote a record, as tables name them: `Ana Souza (ana@caixa-2)`, or `ana@caixa-2` when no name was set. */
export function operatorLabel(who: { holder: string; name?: string | null | undefined }): string {
  return who.name ? `${who.name} (${who.holder})` : who.holder;
}

/** An actor as people read it: `Ana Souza (ana@caixa-2)`, `ana@caixa-2`, `an agent as Ana Souza (ana@caixa-2)`. */
export function describeActor(actor: Pick<Actor, 'holder' | 'name' | 'kind'>): string {
  const who = operatorLabel(actor);
  return actor.kind === 'agent' ? `an agent as ${who}` : who;
}
