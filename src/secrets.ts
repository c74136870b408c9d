/**
 * Strings that must never be printed: the API key, card data read in this run, a shared ledger's
 * password. The last line of defence in error output masks them (cli.ts), and the ledger cleans
 * the error text it keeps of them.
 */
export class Secrets {
  private readonly added = new Set<string>();

  /** @param standing the secrets known without being added: the key in the environment, the profile's once read. */
  constructor(private readonly standing: () => (string | undefined)[]) {}

  /** Card data read in this run, a password in a ledger's URL: masked wherever it might be echoed back. */
  add(value: string): void {
    if (value) this.added.add(value);
  }

  known(): string[] {
    return [...this.standing(), ...this.added].filter((s): s is string => Boolean(s));
  }
}
