#!/usr/bin/env node
// Build step: bundle the compiled CLI into one ES module. Node 20 has no compile cache, and resolving and
// loading ~60 small modules costs about 45 ms of a ~250 ms `faultlab run` (measured with hyperfine); one
// file loads in a fraction of that. Native and lazily loaded packages stay external: better-sqlite3 (a
// native addon), tsx (only for --runner FILE.ts), yaml and ajv (only for an invalid scenario).
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
await build({
  entryPoints: [join(root, 'dist', 'src', 'cli', 'main.js')],
  outfile: join(root, 'dist', 'bundle', 'faultlab.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['better-sqlite3', 'tsx', 'tsx/*', 'yaml', 'ajv', 'ajv/*'],
  // CommonJS dependencies inside an ES module bundle need a real `require`.
  banner: { js: "import { createRequire as __faultlabRequire } from 'node:module'; const require = __faultlabRequire(import.meta.url);" },
  logLevel: 'warning',
});
process.stdout.write('bundled dist/src/cli/main.js → dist/bundle/faultlab.mjs\n');
