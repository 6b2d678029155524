#!/usr/bin/env node
// Build step: record the reference's exploration of the shipped graded set (scenarios/ and scenarios/graded, the
// default seed) into dist/generated/transcripts.json — every run's transcript and what the exploration found
// (src/grade/transcripts.ts). A grade holds each learner's runner to these instead of recording them again on every
// start (about 1.5 s of CPU). Each is found by its scenario's content and seed: an edited scenario is recorded at
// grade time, as any other. The file carries the digest of the sources it was made from.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const load = (path) => import(pathToFileURL(join(root, 'dist', 'src', ...path.split('/'))).href);
const { referenceTranscripts, explorationKey, sourceStamp, RECORDED_TRANSCRIPTS_PATH } = await load('grade/transcripts.js');
const { loadScenarios } = await load('scenario/load.js');
const { GRADED_TARGETS } = await load('core/paths.js');
const { DEFAULT_SEED } = await load('core/defaults.js');

const started = performance.now();
const explorations = {};
let runs = 0;
for (const scenario of loadScenarios([...GRADED_TARGETS])) {
  const set = await referenceTranscripts(scenario, DEFAULT_SEED);
  explorations[explorationKey(scenario, DEFAULT_SEED)] = set;
  runs += set.transcripts.length;
}
mkdirSync(dirname(RECORDED_TRANSCRIPTS_PATH), { recursive: true });
const text = JSON.stringify({ stamp: sourceStamp(), explorations });
writeFileSync(RECORDED_TRANSCRIPTS_PATH, text);
process.stdout.write(`recorded the reference's exploration of ${Object.keys(explorations).length} scenarios (${runs} runs, ${(text.length / 1e6).toFixed(1)} MB) → ${RECORDED_TRANSCRIPTS_PATH.slice(root.length + 1)} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
