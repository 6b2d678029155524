#!/usr/bin/env node
// faultlab's command line. `npm install` compiles the TypeScript (the prepare script) and bundles the CLI
// into one file, so start-up loads plain JavaScript and stays fast; without the bundle the compiled
// modules in dist/src serve the same. Signals, exit codes and a closed stdout are handled by runCli.
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/bundle/faultlab.mjs', import.meta.url);
const modules = new URL('../dist/src/cli/main.js', import.meta.url);
const entry = existsSync(bundle) ? bundle : modules;
if (!existsSync(entry)) {
  process.stderr.write('faultlab: dist/ is missing — run `npm install` (or `npm run build`) first\n');
  process.exit(2);
}
const { runCli } = await import(entry.href);
await runCli(process.argv.slice(2));
