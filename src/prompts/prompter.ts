/** Questions a command may ask. Validators return true or the message to show before asking again. */
export type Validator = (value: string) => true | string;

export interface Choice<T> {
  name: string;
  value: T;
  description?: string;
}

export interface Prompter {
  text(message: string, options?: { default?: string; validate?: Validator }): Promise<string>;
  /** Hidden input: card numbers, CVVs, API keys. Never echoed. */
  secret(message: string, options?: { validate?: Validator }): Promise<string>;
  select<T>(message: string, choices: Choice<T>[], options?: { default?: T }): Promise<T>;
  confirm(message: string, options?: { default?: boolean }): Promise<boolean>;
  /** Asks `message [y/N]`; a "no" cancels the command (exit 3). */
  confirmOrCancel(message: string): Promise<void>;
}

/** Wraps a throwing check (the validate/ functions) into a prompt validator that re-asks. */
export function asValidator(check: (value: string) => unknown): Validator {
  return (value) => {
    try {
      check(value);
      return true;
    } catch (err) {
      return (err as Error).message.replace(/^(--[\w-]+|<[\w-]+>): /, '');
    }
  };
}
