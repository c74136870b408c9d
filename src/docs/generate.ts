import type { Command } from 'commander';
import { manPages } from './man.js';
import { commandReference } from './reference.js';

/** The directory `npm run docs` writes the man pages to: it holds those files and no others. */
export const MAN_DIR = 'docs/man';

/** Every file `npm run docs` writes, by its path from the repository's root. */
export function generatedDocs(program: Command, version: string): Map<string, string> {
  const files = new Map<string, string>([['docs/reference/commands.md', commandReference(program, version)]]);
  for (const [name, text] of manPages(program, version)) files.set(`${MAN_DIR}/${name}`, text);
  return files;
}

/** package.json's "man": the pages among `files`, as npm wants them (paths from the package's root). */
export function manField(files: Map<string, string>): string[] {
  return [...files.keys()].filter((path) => path.startsWith(`${MAN_DIR}/`)).map((path) => `./${path}`);
}
