#!/usr/bin/env node
// faultlab's command line. The TypeScript is compiled to dist/ by `npm install` (the prepare script),
// so start-up loads plain JavaScript and stays fast.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('faultlab: dist/ is missing — run `npm install` (or `npm run build`) first\n');
  process.exit(2);
}
// A reader that closes the pipe early (`faultlab run | head`) is not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
