/** Where a command's words to the user go: status lines (silenced by --quiet), warnings, --debug lines. */
export interface Logger {
  /** Progress and status lines; silenced by --quiet. */
  status(message: string): void;
  /** Warnings always show. */
  warn(message: string): void;
  debug(message: string): void;
}
