/**
 * npm run bench (after the others), or npm run bench:torture alone: `faultlab torture`'s figures (docs/spec.md §19),
 * each beside what it is compared with, measured in the same run.
 *
 *  1. the floor: the same transaction mix in one process with no kills — one worker's life (src/torture/
 *     ProcessLife.ts, the reference's parts) on a torture file in WAL mode, the queue topped up as the driver tops
 *     it up, claim → run (eight log lines, get_stock, reserve) → complete until FLOOR_TASKS are done: tasks per
 *     second, a few rounds. The driver's work (its sweeps, the checks and the pruning after each kill) is not in it;
 *  2. the 1,000-kill run: `faultlab torture --kills 1000 --json` as a user runs it (4 workers, seed 42, a 40 ms
 *     lease), its figures and every check.
 *
 * The run's figures depend on the machine and its load: the load average before and after says how quiet it was.
 * FAULTLAB_TORTURE_KILLS sets the kills (a quick look), FAULTLAB_BENCH_ROUNDS scales the floor's rounds. A
 * benchmark, not a test: nothing here fails on a slow machine — but a broken check is said, and exits 1.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SeededRng } from '../dist/src/core/rng.js';
import { openShared } from '../dist/src/core/storage.js';
import { createTortureDatabase, enqueue } from '../dist/src/torture/intents.js';
import { partsOf } from '../dist/src/torture/parts.js';
import { ProcessLife } from '../dist/src/torture/ProcessLife.js';
import type { TortureJson } from '../dist/src/render/torture.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SCALE = Number(process.env.FAULTLAB_BENCH_ROUNDS ?? 1);
const KILLS = Number(process.env.FAULTLAB_TORTURE_KILLS ?? 1000);
const FLOOR_TASKS = 5_000;
/** As the driver: a batch of 128 once fewer than 64 are queued (src/cli/torture/driver.ts). */
const QUEUED_LOW = 64;
const BATCH = 128;
const out = (line = '') => process.stdout.write(`${line}\n`);
const count = (n: number) => n.toLocaleString('en-US');
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const loadBefore = loadavg();

out(`faultlab bench, torture — Node ${process.version}, ${availableParallelism()} core(s), load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} at the start`);

// ---------------------------------------------------------------------------------------------- 1. the floor
/** One round of the floor: tasks per second. */
async function floorRound(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'faultlab-bench-torture-'));
  try {
    const db = openShared(join(dir, 'torture.db'));
    createTortureDatabase(db);
    const life = new ProcessLife({
      db,
      clock: { nowMs: () => Date.now(), advance: () => {} },
      rng: new SeededRng('floor/tool'),
      name: 'w1',
      leaseMs: 40,
      parts: partsOf('reference'),
      wait: async () => {
        throw new Error('SQLITE_BUSY in a process alone');
      },
      onTheWire: async () => {},
      maxSteps: 100,
    });
    const queued = db.prepare("SELECT count(*) FROM tasks WHERE state = 'queued'").pluck();
    let enqueued = 0;
    let done = 0;
    const started = performance.now();
    while (done < FLOOR_TASKS) {
      if ((queued.get() as number) < QUEUED_LOW) {
        enqueue(db, enqueued, BATCH);
        enqueued += BATCH;
      }
      if ((await life.worker.cycle()) === 'finished') done += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    db.close();
    return done / seconds;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

out();
out(`1. The floor: the workers' transaction mix in one process, no kills (${count(FLOOR_TASKS)} tasks a round)`);
const floor: number[] = [];
for (let i = 0; i < Math.max(1, Math.round(3 * SCALE)); i += 1) floor.push(await floorRound());
out(`     ${'tasks per second'.padEnd(40)} ${count(Math.round(median(floor))).padStart(8)}   (${floor.map((x) => count(Math.round(x))).join(', ')})`);

// ---------------------------------------------------------------------------------------------- 2. the run
out();
out(`2. faultlab torture --kills ${count(KILLS)} (4 workers, seed 42, lease 40 ms)`);
const started = performance.now();
const run = spawnSync(process.execPath, [join(ROOT, 'bin', 'faultlab.cjs'), 'torture', '--kills', String(KILLS), '--json'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 });
const wallSeconds = (performance.now() - started) / 1000;
if (run.status !== 0 && run.status !== 1) {
  out(`     faultlab torture exited with ${run.status ?? run.signal}: ${run.stderr.trim().split('\n').slice(-5).join('\n     ')}`);
  process.exit(1);
}
const report = JSON.parse(run.stdout) as TortureJson;
const figures: Array<[string, string]> = [
  ['kills · pauses', `${count(report.kills)} · ${count(report.pauses)}`],
  ['checks of the file', count(report.checksMade)],
  ['tasks (done · failed · not finished)', `${count(report.enqueued)} (${count(report.tasks.done)} · ${count(report.tasks.failed)} · ${count(report.tasks.queued + report.tasks.running)})`],
  ['effects · ledger rows', `${count(report.tasks.effects)} · ${count(report.tasks.receipts)}`],
  ['grants', count(report.grants)],
  ['stale writes refused', count(report.staleRefused)],
  ['BUSY retries', count(report.busyRetries)],
  ['time (kills, then the drain)', `${(report.elapsedMs / 1000).toFixed(1)} s (the command: ${wallSeconds.toFixed(1)} s)`],
  ['throughput', `${count(report.tasksPerSecond)} tasks/s — ${((100 * report.tasksPerSecond) / median(floor)).toFixed(1)}% of the floor`],
];
for (const [label, value] of figures) out(`     ${label.padEnd(40)} ${value}`);
for (const check of report.checks) out(`     ${check.passed ? '✓' : '✗'} ${check.id}${check.passed ? '' : `: ${check.found} found — ${check.first?.message ?? ''}`}`);
for (const error of report.workerErrors) out(`     ✗ worker ${error.worker} ended on its own (${error.exit})`);

out();
out(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the end (${loadBefore.map((l) => l.toFixed(2)).join(' ')} at the start)`);
if (!report.held) process.exit(1);
