#!/usr/bin/env node
// CommonJS (see bin/package.json), so that `payctl --version`, which scripts and shell prompts
// call most, answers without starting Node's ES module loader at all: that alone is most of what
// the bundle would add to a bare `node -e 0`. Help into a pipe or a file is answered the same way,
// from the text the build wrote for each command (src/docs/build-help.ts): `payctl <group> <verb>
// --help` as typed, the words before --help naming a command, and on a terminal of 80 columns or
// more. Everything else, help fitted to a narrower terminal included, hands over to the bundle.
'use strict';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
  process.exit(0);
}
// Help is at most 80 columns wide (src/cli.ts HELP_WIDTH), so a terminal at least that wide is
// shown the build's text too; a narrower one has it fitted to its width by the command line.
const help = process.stdout.isTTY && !(process.stdout.columns >= 80) ? undefined : builtHelp(args);
if (help === undefined) {
  import('../dist/main.js');
} else {
  // `payctl --help | head`: once the reader is gone, stop quietly, as the bundle does.
  process.stdout.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
  });
  process.stdout.write(help);
}

/** The help the build wrote for `<words> --help` (or -h), or undefined when args are anything else. */
function builtHelp(argv) {
  const last = argv[argv.length - 1];
  if (last !== '--help' && last !== '-h') return undefined;
  const words = argv.slice(0, -1);
  if (!words.every((word) => /^[a-z][a-z0-9-]*$/.test(word))) return undefined;
  try {
    return require('node:fs').readFileSync(`${require('node:path').join(__dirname, '../dist/help/payctl', ...words)}.txt`, 'utf8');
  } catch {
    return undefined;
  }
}
