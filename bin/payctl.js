#!/usr/bin/env node
// CommonJS (see bin/package.json), so that `payctl --version`, which scripts and shell prompts
// call most, answers without starting Node's ES module loader at all: that alone is most of what
// the bundle would add to a bare `node -e 0`. Everything else hands over to the bundle.
'use strict';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
  process.exit(0);
}
import('../dist/main.js');
