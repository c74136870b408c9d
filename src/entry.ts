// Where the running bundle's entry module (dist/main.js) is, so that it can be started again on a
// worker thread: the embedded sandbox runs there (sandbox/thread-host.ts). Unset when the CLI is
// driven from source, as the in-process tests do; the sandbox then runs on the command's thread.

let entry: URL | undefined;

export function setEntryUrl(url: string): void {
  entry = new URL(url);
}

export function entryUrl(): URL | undefined {
  return entry;
}
