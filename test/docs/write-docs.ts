// `npm run docs`: writes the command reference and the man pages from the command tree.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildProgram } from '../../src/cli.js';
import { generatedDocs, MAN_DIR, manField } from '../../src/docs/generate.js';
import { processIO } from '../../src/io.js';
import { VERSION } from '../../src/version.js';

const files = generatedDocs(buildProgram({ io: processIO() }), VERSION);
// A page of a command that is gone must not stay behind.
mkdirSync(MAN_DIR, { recursive: true });
for (const name of readdirSync(MAN_DIR)) if (!files.has(join(MAN_DIR, name))) rmSync(join(MAN_DIR, name));
for (const [path, text] of files) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
// npm install -g installs the pages package.json's "man" names: every page, and no other.
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, unknown>;
pkg.man = manField(files);
writeFileSync('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
console.log(`wrote ${[...files.keys()].join(', ')}`);
