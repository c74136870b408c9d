// Who acts on the ledger: the OS user and host (as locks and intents name them), the operator's
// display name when the profile sets one (operator_name), and what kind of actor runs payctl. The
// kind is what rules are written against: a person may be asked at a terminal; a script runs with
// prompts off (a pipe, cron, --no-input); an agent is an AI agent's shell, trusted less than either.
import { agentSignal } from '../platform/agent.js';
import { currentOwner } from '../platform/owner.js';

export type ActorKind = 'person' | 'script' | 'agent';

export interface Actor {
  /** `user@host`, as the ledger's locks and intents record it (platform/owner.ts). */
  holder: string;
  /** The profile's operator_name, for people reading the trail. */
  name?: string;
  kind: ActorKind;
  /** What made it an agent ("CLAUDECODE is set", "PAYCTL_ACTOR=agent"). */
  signal?: string;
}

export interface ActorSigns {
  env: NodeJS.ProcessEnv;
  /** Why nobody may be asked in this run (prompts/off.ts), undefined when a person is there to answer. */
  promptsOff: string | undefined;
  /** The profile's operator_name, checked. */
  name?: string | undefined;
}

/** The actor of this process: an agent when its shell says so, else a script when prompts are off, else a person. */
export function actorOf(signs: ActorSigns, holder = currentOwner().holder): Actor {
  const signal = agentSignal(signs.env);
  const kind: ActorKind = signal !== undefined ? 'agent' : signs.promptsOff !== undefined ? 'script' : 'person';
  return { holder, ...(signs.name !== undefined ? { name: signs.name } : {}), kind, ...(signal !== undefined ? { signal } : {}) };
}

/** `Ana Souza (ana@caixa-2)`, or the holder alone when no name is set: how tables and messages name who acted. */
export function actorLabel(who: { holder: string; name?: string | null | undefined }): string {
  return who.name ? `${who.name} (${who.holder})` : who.holder;
}
