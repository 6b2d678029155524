#!/usr/bin/env node
// Build step: parse every YAML file under scenarios/ with the quick path's own parse (dist/src/scenario/
// quickParse.js) and keep each text with its value in dist/generated/scenarios.parsed.json, so `faultlab run`
// does not parse the shipped scenarios with a cold js-yaml on every start (about 60 ms). At run time a text
// is looked up whole: an edited file is simply not found and is parsed as usual.
//
// Only values that JSON gives back exactly are kept (no dates, -0, NaN or Infinity); a file js-yaml refuses
// is left out too, and so reaches the precise path with its line and column as before.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { parseYaml, PARSED_SCENARIOS_PATH } = await import(pathToFileURL(join(root, 'dist', 'src', 'scenario', 'quickParse.js')).href);

function* yamlFiles(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* yamlFiles(path);
    else if (/\.ya?ml$/.test(name)) yield path;
  }
}

const kept = [];
let skipped = 0;
for (const path of yamlFiles(join(root, 'scenarios'))) {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(path)); // as src/scenario/readText.ts reads it
  let value;
  try {
    value = parseYaml(text);
  } catch {
    skipped += 1;
    continue;
  }
  const json = JSON.stringify(value);
  if (json === undefined || !isDeepStrictEqual(JSON.parse(json), value)) {
    skipped += 1;
    continue;
  }
  kept.push([text, json]);
}
mkdirSync(dirname(PARSED_SCENARIOS_PATH), { recursive: true });
writeFileSync(PARSED_SCENARIOS_PATH, JSON.stringify(kept));
process.stdout.write(`parsed ${kept.length} scenario files → ${PARSED_SCENARIOS_PATH.slice(root.length + 1)}${skipped ? ` (${skipped} left to be parsed at run time)` : ''}\n`);
