#!/usr/bin/env node
// Build step: bundle the compiled CLI into one file, and keep V8's compiled code for it.
//
// One file: Node 20 has no compile cache, and resolving and loading ~60 small modules cost about 45 ms of a
// ~250 ms `faultlab run` (measured with hyperfine). Lazily loaded packages stay external: tsx (only for
// --runner FILE.ts), yaml and ajv (only for an invalid scenario). better-sqlite3's JavaScript is bundled, and
// so compiled from the code cache (required from source it took ~12 ms); its native addon is required straight
// from the package's build folder instead of through `bindings`, which looks for it by walking a stack trace
// and trying a dozen paths (~4 ms of the first `new Database`).
//
// Compiled code: the bundle is CommonJS (dist/bundle/faultlab.cjs), which V8 can compile from a code cache;
// dist/bundle/faultlab.load.cjs is a small loader that compiles it with the cache kept beside it, runs it, and
// exports what it exports. The cache is made here, by running `faultlab run --quiet` once and keeping the
// code of every function that ran; it saves parsing and compiling them on every start (measured: about
// 60 ms of CPU on `faultlab run --quiet`). V8 checks a cache against the source and its own version and
// flags, and compiles afresh when it does not match, so a stale or foreign cache costs time, never a result.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'bundle');

// The runner scenarios' compiled validator (scripts/compile-schemas.mjs) rides in the bundle, and so in its code
// cache: required when src/scenario/fastValidator.ts first asks for it by file name, still checked against the
// schema's hash. The labs' stays a file: about 470 KB once bundled, which every start would read for the few
// commands that load a lab.
const generated = join(root, 'dist', 'generated');
const validators = ['scenario.schema.validate.cjs'];
const entry = [
  `globalThis[Symbol.for('faultlab.compiledValidators')] = {`,
  ...validators.map((name) => `  ${JSON.stringify(name)}: () => require(${JSON.stringify(join(generated, name))}),`),
  `};`,
  `export * from ${JSON.stringify(join(root, 'dist', 'src', 'cli', 'main.js'))};`,
].join('\n');

/** better-sqlite3 asks `bindings` for its addon: the bundle answers with the file in the package's build folder. */
const addonStraight = {
  name: 'better-sqlite3-addon',
  setup(build) {
    build.onResolve({ filter: /^bindings$/ }, () => ({ path: 'bindings', namespace: 'faultlab-addon' }));
    build.onLoad({ filter: /.*/, namespace: 'faultlab-addon' }, () => ({
      loader: 'js',
      contents: `const { dirname, join } = require('node:path');
module.exports = (name) => require(join(dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', name));`,
    }));
  },
};

/** One CommonJS bundle of compiled modules (`entry`: esbuild's stdin) at dist/bundle/<name>.cjs. */
async function bundleAs(name, entry) {
  await build({
    stdin: { contents: entry, resolveDir: root, sourcefile: `${name}-entry.js`, loader: 'js' },
    outfile: join(out, `${name}.cjs`),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // better-sqlite3/package.json: only require.resolve'd at run time, to find the addon (addonStraight).
    external: ['tsx', 'tsx/*', 'yaml', 'ajv', 'ajv/*', 'better-sqlite3/package.json'],
    plugins: [addonStraight],
    // The sources are ES modules: in CommonJS, import.meta is the bundle's own URL.
    define: { 'import.meta.url': '__faultlabUrl', 'import.meta.resolve': '__faultlabResolve' },
    banner: {
      js: "const __faultlabUrl = require('node:url').pathToFileURL(__filename).href; const __faultlabResolve = (s) => require('node:url').pathToFileURL(require.resolve(s)).href;",
    },
    logLevel: 'warning',
  });
  asciiOnly(join(out, `${name}.cjs`));
}

/**
 * Every character past ASCII written as its `\uXXXX` escape. esbuild escapes them in strings, but not in the
 * comments it keeps or in regular expressions (the wrapping of Chinese text has a few), and one is enough to
 * make Node decode the whole ~1.2 MB file as UTF-8 into a two-byte string: ~2.5 ms of every start, against
 * a one-byte string read straight. The escape means the same character in a regular expression, with or
 * without the u flag, and in a string; in a comment it is only text.
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  // After a backslash the escape would read as an escaped backslash and the letters of the escape: refuse.
  const escaped = /\\[^\x00-\x7f]/.exec(text);
  if (escaped) throw new Error(`bundle-cli: ${file} has a backslash before a non-ASCII character (at ${escaped.index}): write that character as \\uXXXX in the source`);
  const ascii = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii !== text) writeFileSync(file, ascii);
}

// The loader, CommonJS like the bundle: a CommonJS entry (bin/faultlab.cjs) starts without Node's ES module
// loader, ~20 ms of every start on this machine (hyperfine: an empty .mjs against an empty .cjs).
function writeLoader(name) {
  writeFileSync(
    join(out, `${name}.load.cjs`),
    `'use strict';
// Generated by scripts/bundle-cli.mjs: compiles ${name}.cjs with V8's code cache beside it (made at build
// time) and exports what it exports. Without a usable cache V8 compiles it as usual.
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

const file = join(__dirname, '${name}.cjs');
const cacheFile = file + '.cache';
const cachedData = existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
const script = new vm.Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, ...(cachedData ? { cachedData } : {}) });
// A script cannot import on its own: its dynamic imports (src/core/dynamicImport.ts) are made here.
globalThis[Symbol.for('faultlab.dynamicImport')] = (specifier) => import(specifier);
const bundle = { exports: {} };
script.runInThisContext()(bundle.exports, Module.createRequire(file), bundle, file, dirname(file));
// The build runs one command with this set, and keeps the code of every function that ran.
if (process.env.FAULTLAB_WRITE_CODE_CACHE === cacheFile) process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));

module.exports = bundle.exports;
`,
  );
}

/** The code cache of a bundle: what running `args` compiles, kept as it is when the thread that loaded it ends. */
function cacheFrom(name, args, statuses = [0]) {
  const cache = join(out, `${name}.cjs.cache`);
  rmSync(cache, { force: true });
  const warm = spawnSync(process.execPath, [join(root, 'bin', 'faultlab.cjs'), ...args], {
    cwd: root,
    env: { ...process.env, FAULTLAB_WRITE_CODE_CACHE: cache, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (!statuses.includes(warm.status) || !existsSync(cache)) process.stderr.write(`bundle-cli: faultlab ${args.join(' ')} left no code cache for ${name}.cjs (exit ${warm.status}; it works without one)\n`);
}

await bundleAs('faultlab', entry);
writeLoader('faultlab');
rmSync(join(out, 'faultlab.mjs'), { force: true }); // the ES module loader of earlier builds

// The explorer's worker thread, bundled too: loading dist/src's ~60 modules took a worker ~0.2 s on an idle
// machine and 0.4–0.6 s beside a busy main thread, while the main thread explored alone. Started through its
// loader by src/core/workerThread.ts when the caller is the bundle.
await bundleAs('explore-worker', `import ${JSON.stringify(join(root, 'dist', 'src', 'explore', 'worker.js'))};`);
writeLoader('explore-worker');

// The grader's thread (src/grade/worker.ts), bundled too: a submission graded alone starts two, and a class one
// per core; each loaded dist/src's modules one by one before its first run.
await bundleAs('grade-worker', `import ${JSON.stringify(join(root, 'dist', 'src', 'grade', 'worker.js'))};`);
writeLoader('grade-worker');

// The torture's worker process (src/cli/torture/worker.ts), bundled too: every SIGKILL is followed by a start of
// one, and loading dist/src's modules one by one would be most of what a restart costs. Started by the torture's
// driver through its loader when the driver runs from the bundle.
await bundleAs('torture-worker', `import ${JSON.stringify(join(root, 'dist', 'src', 'cli', 'torture', 'worker.js'))};`);
writeLoader('torture-worker');

// The box's host (src/box/host.ts): one ES module a box starts on, with nothing to resolve at run time.
const { compileModule } = await import(pathToFileURL(join(root, 'dist', 'src', 'box', 'compile.js')).href);
await compileModule(join(root, 'src', 'box', 'host.ts'), join(out, 'box-host.mjs'));

// The caches: the code `faultlab run --quiet` compiles, and the code a worker compiles exploring one scenario.
cacheFrom('faultlab', ['run', '--quiet']);
cacheFrom('explore-worker', ['explore', '--json', '--workers', '2', join(root, 'scenarios', 'happy_path.yaml')]);
cacheFrom('grade-worker', ['grade', '--no-explore', '--scenarios', join(root, 'scenarios', 'happy_path.yaml'), '--replays', join(out, '.grade-cache'), join(root, 'src', 'runner', 'LearnerRunner.ts')], [0, 1]);
rmSync(join(out, '.grade-cache'), { recursive: true, force: true });
process.stdout.write(`bundled dist/src/cli/main.js → dist/bundle/faultlab.cjs, the explorer's worker → dist/bundle/explore-worker.cjs, the grader's → dist/bundle/grade-worker.cjs and the torture's → dist/bundle/torture-worker.cjs (each with its loader and a code cache)\n`);
