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

const REPEATS = 7;
const cores = Math.min(availableParallelism(), 8);
const scenarios = loadScenarios();

/** Wall time of one piece of work (ms); the best of REPEATS is the one least disturbed by the rest of the machine. */
async function time(work: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/**
 * The floor on several threads: each worker gets its share of the runs and reports how long replaying them
 * took, from its own start; the slowest share is the time. (Start-up and copying the runs are left out —
 * generous to the floor, since explore's own figure includes starting its workers.)
 */
async function floorOnThreads(runs: Op[][], threads: number): Promise<number> {
  const shares = Array.from({ length: threads }, (_, t) => runs.filter((_, i) => i % threads === t));
  const times = await Promise.all(
    shares.map(
      (share) =>
        new Promise<number>((resolve, reject) => {
          const worker = new Worker(new URL('./floor.mjs', import.meta.url), { workerData: { runs: share } });
          worker.once('message', (ms: number) => resolve(ms));
          worker.once('error', reject);
        }),
    ),
  );
  return Math.max(...times);
}

const { result: recorded, runs } = await record(() => explore(scenarios, { depth: 1, workers: 1 }));
const schedules = recorded.total.total;
if (runs.length !== schedules) throw new Error(`recorded ${runs.length} runs for ${schedules} schedules`);
const ops = runs.reduce((n, r) => n + r.length, 0);

// Interleaved, so that whatever else the machine is doing weighs on both sides alike.
let [exploreOne, exploreAll, floorOne, floorAll] = [Infinity, Infinity, Infinity, Infinity];
for (let i = 0; i < REPEATS; i += 1) {
  floorOne = Math.min(floorOne, await time(() => replayRuns(runs)));
  exploreOne = Math.min(exploreOne, await time(() => explore(scenarios, { depth: 1, workers: 1 })));
  floorAll = Math.min(floorAll, await floorOnThreads(runs, cores));
  exploreAll = Math.min(exploreAll, await time(() => explore(scenarios, { depth: 1, workers: cores })));
}

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
