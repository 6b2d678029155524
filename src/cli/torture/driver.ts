/**
 * `faultlab torture`'s driver (docs/spec.md §19): real worker processes on one SQLite file in WAL mode, and the
 * plan's signals sent to them at real moments. It makes the file, starts the workers (processes.ts, each running
 * worker.ts), and plays the two roles the simulation gives the harness — the producer that queues tasks and the
 * sweeper that returns expired leases (QueueStore.sweep, the protocol's own). For each planned signal, once its
 * worker is up: SIGKILL, wait for the process to be gone, start it again and check the file (checked and pruned
 * under the write lock, src/torture/archive.ts); or SIGSTOP, and SIGCONT when the pause is over. A broken check stops
 * the run there. After the last signal it stops producing, lets the workers finish every task (the drain), kills
 * them, and checks the live file and the archive once more.
 *
 * Nothing outlives it: the workers are killed on every way out (the end, an error, SIGINT and SIGTERM through the
 * CLI's stop hooks); a worker whose driver is gone ends itself (worker.ts); and a driver killed outright leaves its
 * folder with the workers' pids in it, for the next start's sweep to kill and remove (src/core/tempDir.ts).
 */
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { SeededRng } from '../../core/rng.js';
import { isBusy } from '../../core/busy.js';
import { openShared } from '../../core/storage.js';
import { CHILDREN_FILE, makeTempDir, removeTempDir } from '../../core/tempDir.js';
import { attachArchive, checkAndArchive } from '../../torture/archive.js';
import { addFigures, allAccountedFor, combine, fileFigures, integrity, taskChecks, type FileCheck } from '../../torture/fileChecks.js';
import { createTortureDatabase, enqueue } from '../../torture/intents.js';
import { partsOf } from '../../torture/parts.js';
import { planDigest, planTorture } from '../../torture/plan.js';
import type { TortureProgress, TortureReport } from '../../torture/report.js';
import { WorkerProcesses } from './processes.js';

export interface TortureOptions {
  workers: number;
  kills: number;
  pauses: number;
  seed: number;
  leaseMs: number;
  /** How long each tool call takes on the wire, in real ms (0: no network, the tool as fast as SQLite). */
  toolMs: number;
  /** `reference`, or `mutant:NAME`. */
  runner: string;
  /** Told after every signal. */
  onProgress?: (progress: TortureProgress) => void;
  /** Register what must run however the process stops (the CLI's onStop); returns its un-registration. */
  onStop: (fn: () => void) => () => void;
}

/** How often the driver sweeps expired leases and tops the queue up, in ms: a fraction of a lease. */
const HOUSEKEEPING_EVERY_MS = 10;
/** The queue is topped up below this many queued tasks, by a batch of this many: enough that no worker waits. */
const QUEUED_LOW = 64;
const BATCH = 128;
/** Once the signals stop, the workers have this long to finish every task; what is left then is a lost intent. */
const DRAIN_MS = 10_000;
/** A worker that is not ready this long after its start is not coming (a machine this loaded cannot torture). */
const START_MS = 60_000;
/** The driver's own back-off after SQLITE_BUSY, in ms (as a worker's). */
const BUSY_WAIT_MS = { min: 1, max: 3 } as const;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function torture(options: TortureOptions): Promise<TortureReport> {
  const plan = planTorture(options.seed, options);
  const dir = makeTempDir('torture');
  const file = join(dir, 'torture.db');
  const workers = new WorkerProcesses(options.workers, { db: file, seed: options.seed, leaseMs: options.leaseMs, toolMs: options.toolMs, runner: options.runner }, join(dir, CHILDREN_FILE));
  const jitter = new SeededRng(`${options.seed}/driver/busy`);
  let driverBusy = 0;
  const waitBusy = async () => {
    driverBusy += 1;
    await sleep(jitter.int(BUSY_WAIT_MS.min, BUSY_WAIT_MS.max));
  };
  const busyRetried = async <T>(work: () => T | Promise<T>): Promise<T> => {
    for (;;) {
      try {
        return await work();
      } catch (error) {
        if (!isBusy(error)) throw error;
        await waitBusy();
      }
    }
  };
  // Two connections, one per role: the sweeper's transactions await between statements, and a check must never
  // find its connection inside one.
  let keeper: Database.Database | null = null;
  let checker: Database.Database | null = null;
  const unregister = options.onStop(() => {
    workers.killAll();
    keeper?.close();
    checker?.close();
  });

  try {
    keeper = openShared(file);
    createTortureDatabase(keeper);
    checker = openShared(file);
    attachArchive(checker, join(dir, 'archive.db'));
    const store = new (partsOf(options.runner).queue)({ db: keeper, clock: { nowMs: () => Date.now(), advance: () => {} }, leaseMs: options.leaseMs, turns: { at: async () => {}, busy: waitBusy } });
    let enqueued = 0;
    const topUp = async () => {
      const queued = keeper!.prepare("SELECT count(*) FROM tasks WHERE state = 'queued'").pluck().get() as number;
      if (queued >= QUEUED_LOW) return;
      await busyRetried(() => enqueue(keeper!, enqueued, BATCH));
      enqueued += BATCH;
    };
    await topUp();
    await workers.start(START_MS);
    const startedAt = Date.now();

    // The producer and the sweeper, until the signals stop (the producer) and the drain ends (the sweeper).
    let producing = true;
    let housekeeping = true;
    const keeping = (async () => {
      while (housekeeping && workers.aborted === null) {
        await sleep(HOUSEKEEPING_EVERY_MS);
        await store.sweep();
        if (producing) await topUp();
      }
    })().catch((error: Error) => workers.abort(error)); // not a BUSY (that is waited out): a defect, which stops the run

    const checks: FileCheck[][] = [];
    let brokenAfterKill: number | null = null;
    /** Check the live file, and move what it found finished; `afterKill`: the kill it follows, or null for the last. */
    const check = async (afterKill: number | null) => {
      const { checks: found } = await busyRetried(() => checkAndArchive(checker!, 'torture.db'));
      checks.push(found);
      if (afterKill !== null && brokenAfterKill === null && found.some((c) => !c.passed)) brokenAfterKill = afterKill;
    };

    let kills = 0;
    let pauses = 0;
    for (const planned of plan) {
      await sleep(planned.afterMs);
      if (planned.signal === 'SIGKILL') {
        await workers.kill(planned.worker);
        kills += 1;
        await check(kills);
      } else {
        await workers.pause(planned.worker, planned.pauseMs ?? 0);
        pauses += 1;
      }
      const counts = workers.counts();
      options.onProgress?.({ kills, pauses, plannedKills: options.kills, plannedPauses: options.pauses, finished: counts.done + counts.failed, staleRefused: counts.staleRefused, elapsedMs: Date.now() - startedAt });
      if (brokenAfterKill !== null) break;
    }

    // The drain: no more signals, no more tasks; every task queued must reach done or failed. A run stopped by a
    // broken check is not drained: what was in flight then is evidence, not a lost intent.
    producing = false;
    await workers.unpaused();
    let drained: boolean | null = null;
    if (brokenAfterKill === null) {
      drained = false;
      const left = checker.prepare("SELECT count(*) FROM main.tasks WHERE state IN ('queued', 'running')").pluck();
      const by = Date.now() + DRAIN_MS;
      while (!(drained = left.get() === 0) && Date.now() < by) await sleep(HOUSEKEEPING_EVERY_MS);
    }
    const elapsedMs = Date.now() - startedAt;
    housekeeping = false;
    await keeping;
    if (workers.aborted !== null) throw workers.aborted;
    await workers.stop();

    // The last check: nobody else has the file open now.
    await check(null);
    checks.push([
      integrity(checker, 'main', 'torture.db'),
      integrity(checker, 'archive', 'archive.db'),
      ...taskChecks(checker, 'main', drained !== null),
      ...taskChecks(checker, 'archive', true),
      allAccountedFor(checker, enqueued),
    ]);
    const tasks = addFigures(fileFigures(checker, 'main'), fileFigures(checker, 'archive'));
    const counts = workers.counts();
    const finished = tasks.done + tasks.failed;
    return {
      seed: options.seed,
      runner: options.runner,
      workers: options.workers,
      leaseMs: options.leaseMs,
      toolMs: options.toolMs,
      plan: { kills: options.kills, pauses: options.pauses, digest: planDigest(plan) },
      kills,
      pauses,
      checksMade: checks.length - 1, // one after every kill, and one at the end: the live file, then both files whole
      brokenAfterKill,
      enqueued,
      tasks,
      drained,
      grants: counts.grants,
      staleRefused: counts.staleRefused,
      busyRetries: counts.busyRetries + driverBusy,
      workerErrors: workers.errors,
      elapsedMs,
      tasksPerSecond: elapsedMs > 0 ? Math.round((finished * 1000) / elapsedMs) : 0,
      checks: combine(checks),
    };
  } finally {
    await workers.stop();
    keeper?.close();
    checker?.close();
    unregister();
    removeTempDir(dir);
  }
}
