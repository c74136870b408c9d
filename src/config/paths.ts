import { homedir } from 'node:os';
import { join } from 'node:path';

export interface Paths {
  configDir: string;
  configFile: string;
  stateDir: string;
}

/**
 * Where config and state live. PAYCTL_HOME puts both under one directory (tests use a fresh
 * temporary one); otherwise the XDG base directories, as the contract lays out.
 */
export function resolvePaths(env: NodeJS.ProcessEnv): Paths {
  const home = env.PAYCTL_HOME;
  if (home) {
    return { configDir: home, configFile: join(home, 'config.json'), stateDir: join(home, 'state') };
  }
  const userHome = env.HOME || homedir();
  const configDir = join(env.XDG_CONFIG_HOME || join(userHome, '.config'), 'payctl');
  const stateDir = join(env.XDG_STATE_HOME || join(userHome, '.local', 'state'), 'payctl');
  return { configDir, configFile: join(configDir, 'config.json'), stateDir };
}

/** This machine's ledger of money moves, under a state directory (unless a shared one is set). */
export function sqliteLedgerPath(stateDir: string): string {
  return join(stateDir, 'ledger', 'ledger.sqlite');
}
