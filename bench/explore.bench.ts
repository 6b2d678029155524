/**
 * npm run bench: how fast `faultlab explore` runs depth 1 over the 17 scenarios, against the floor of what
 * SQLite allows for the same work — the statement mix of those very runs, recorded and replayed straight on
 * better-sqlite3 (floor.mjs). Prints schedules per second for both, on one thread and on every core, and
 * the ratio. A benchmark, not a test: nothing here fails on a slow machine.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { explore } from '../dist/src/explore/explore.js';
import { loadScenarios } from '../dist/src/scenario/load.js';
import { replayRuns } from './floor.mjs';
import { record, type Op } from './record.js';

const REPEATS = 5;
const cores = Math.min(availableParallelism(), 8);
const scenarios = loadScenarios();

/** The best of REPEATS timings (ms): the run least disturbed by the rest of the machine. */
async function best(work: () => Promise<unknown> | unknown): Promise<number> {
  let fastest = Infinity;
  for (let i = 0; i < REPEATS; i += 1) {
    const started = performance.now();
    await work();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

function floorOnThreads(runs: Op[][], threads: number): Promise<number> {
  const started = performance.now();
  const shares = Array.from({ length: threads }, (_, t) => runs.filter((_, i) => i % threads === t));
  return Promise.all(
    shares.map(
      (share) =>
        new Promise<void>((resolve, reject) => {
          const worker = new Worker(new URL('./floor.mjs', import.meta.url), { workerData: { runs: share } });
          worker.once('message', () => resolve());
          worker.once('error', reject);
        }),
    ),
  ).then(() => performance.now() - started);
}

const { result: recorded, runs } = await record(() => explore(scenarios, { depth: 1, workers: 1 }));
const schedules = recorded.total.total;
if (runs.length !== schedules) throw new Error(`recorded ${runs.length} runs for ${schedules} schedules`);
const ops = runs.reduce((n, r) => n + r.length, 0);

const exploreOne = await best(() => explore(scenarios, { depth: 1, workers: 1 }));
const exploreAll = await best(() => explore(scenarios, { depth: 1, workers: cores }));
const floorOne = await best(() => replayRuns(runs));
const floorAll = await best(() => floorOnThreads(runs, cores));

const rate = (ms: number) => Math.round((schedules * 1000) / ms);
const row = (label: string, ms: number, floor: number) =>
  `  ${label.padEnd(34)}${`${(ms / 1000).toFixed(3)} s`.padStart(9)}${`${rate(ms)}/s`.padStart(10)}${`${Math.round((100 * floor) / ms)} %`.padStart(9)}`;
process.stdout.write(
  [
    `faultlab bench — depth 1 over the ${scenarios.length} scenarios: ${schedules} schedules, ${ops} SQLite operations recorded (${(ops / schedules).toFixed(1)} per run)`,
    `best of ${REPEATS}; ${cores} core(s); Node ${process.version}`,
    '',
    `  ${''.padEnd(34)}${'time'.padStart(9)}${'rate'.padStart(10)}${'of floor'.padStart(9)}`,
    row('floor, 1 thread (replay on SQLite)', floorOne, floorOne),
    row('explore, 1 thread', exploreOne, floorOne),
    row(`floor, ${cores} threads`, floorAll, floorAll),
    row(`explore, ${cores} workers`, exploreAll, floorAll),
    '',
    `  ratio explore / floor: ${((100 * floorOne) / exploreOne).toFixed(0)} % on 1 thread, ${((100 * floorAll) / exploreAll).toFixed(0)} % on ${cores}` +
      ` (target ≥ 50 %); depth 1 over all ${scenarios.length} in ${(exploreAll / 1000).toFixed(2)} s (target < 2 s)`,
    '',
  ].join('\n'),
);
