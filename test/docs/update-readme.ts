// `npm run docs`: writes the command reference into README.md from the command tree.
import { readFileSync, writeFileSync } from 'node:fs';
import { buildProgram } from '../../src/cli.js';
import { commandReference, spliceReference } from '../../src/docs/help-tree.js';
import { processIO } from '../../src/io.js';

const program = buildProgram({ io: processIO() });
const readme = readFileSync('README.md', 'utf8');
writeFileSync('README.md', spliceReference(readme, commandReference(program)));
console.log('README.md: command reference updated');
