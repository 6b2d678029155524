#!/usr/bin/env node
// faultlab's command line. `npm install` compiles the TypeScript (the prepare script) and bundles the CLI
// into one file, so start-up loads plain JavaScript and stays fast; without the bundle the compiled
// modules in dist/src serve the same. Signals, exit codes and a closed stdout are handled by runCli.
// CommonJS on purpose: an ES module entry would start Node's module loader, ~20 ms of every start.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const bundle = join(__dirname, '..', 'dist', 'bundle', 'faultlab.load.cjs');
const modules = join(__dirname, '..', 'dist', 'src', 'cli', 'main.js');
if (existsSync(bundle)) {
  require(bundle).runCli(process.argv.slice(2));
} else if (existsSync(modules)) {
  import(pathToFileURL(modules).href).then(({ runCli }) => runCli(process.argv.slice(2)));
} else {
  process.stderr.write('faultlab: dist/ is missing — run `npm install` (or `npm run build`) first\n');
  process.exit(2);
}
