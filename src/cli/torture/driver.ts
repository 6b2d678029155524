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
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SeededRng } from '../../core/rng.js';
import { isBusy } from '../../core/busy.js';
import { openShared } from '../../core/storage.js';
import { SqliteSql } from '../../core/sql.js';
import { CHILDREN_FILE, makeTempDir, removeTempDir } from '../../core/tempDir.js';
import { attachArchive, checkAndArchive } from '../../torture/archive.js';
import { addFigures, allAccountedFor, combine, fileFigures, integrity, runChecks, taskChecks, type FileCheck } from '../../torture/fileChecks.js';
import { createTortureDatabase, enqueueOps, queuedOps } from '../../torture/intents.js';
import { partsOf } from '../../torture/parts.js';
import { planDigest, planTorture } from '../../torture/plan.js';
import type { TortureProgress, TortureReport } from '../../torture/report.js';
import { TORTURE_URL_VARIABLE } from './ipc.js';
import { JoinedRunEnded, NoRunToJoin, WorkerProcesses } from './processes.js';
import type { TortureDatabase } from './place.js';

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
  /**
   * On PostgreSQL: the server (its URL, and how it is shown: `postgres` for the embedded one, the URL without its
   * password), and whether some kills end the worker's server backend instead (`pg_terminate_backend`).
   */
  postgres?: {
    url: string;
    shown: string;
    terminateBackends: boolean;
    /** `--join`: another run's schema on that server, whose queue this run's workers share (that run produces and sweeps). */
    join: string | null;
    /** Told the run's own schema once it is made (another machine's run may join it). */
    onSchema?: (schema: string) => void;
  };
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
/** A worker whose backend was terminated ends of it at once; if it has not within this long, it is SIGKILLed. */
const SEVER_MS = 5_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function torture(options: TortureOptions): Promise<TortureReport> {
  const plan = planTorture(options.seed, options);
  const dir = makeTempDir('torture');
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
  const pg = options.postgres;
  let place: TortureDatabase | null = null;
  let workers: WorkerProcesses | null = null;
  const unregister = options.onStop(() => {
    workers?.killAll();
    place?.abandon();
  });
  // Which kills end the worker's server backend instead (`--terminate-backends`): every other one, from its own stream.
  const severs = new SeededRng(`${options.seed}/driver/sever`);

  try {
    const joining = pg?.join ?? null;
    place = pg === undefined ? sqlitePlace(dir, busyRetried) : await (await import('./place.js')).postgresPlace(pg.url, joining);
    if (place === null) throw new NoRunToJoin(joining!);
    if (pg !== undefined && joining === null) pg.onSchema?.(place.schema!);
    workers =
      pg === undefined
        ? new WorkerProcesses(options.workers, { db: place.workerDb, seed: options.seed, leaseMs: options.leaseMs, toolMs: options.toolMs, runner: options.runner }, join(dir, CHILDREN_FILE))
        : new WorkerProcesses(
            options.workers,
            { db: dir, schema: place.schema!, seed: options.seed, leaseMs: options.leaseMs, toolMs: options.toolMs, runner: options.runner },
            join(dir, CHILDREN_FILE),
            { env: { ...process.env, [TORTURE_URL_VARIABLE]: pg.url }, ...(joining !== null ? { prefix: `${hostname()}.${process.pid}.` } : {}) },
          );
    const db = place;
    const running = workers;
    const store = new (partsOf(options.runner).queue)({ db: db.keeper, clock: { nowMs: () => Date.now(), advance: () => {} }, leaseMs: options.leaseMs, turns: { at: async () => {}, busy: waitBusy } });
    let enqueued = 0;
    const topUp = async () => {
      const queued = await db.keeper.run(queuedOps());
      if (queued >= QUEUED_LOW) return;
      await busyRetried(() => db.keeper.run(enqueueOps(enqueued, BATCH)));
      enqueued += BATCH;
    };
    if (joining === null) await topUp();
    await running.start(START_MS);
    const startedAt = Date.now();

    // The producer and the sweeper, until the signals stop (the producer) and the drain ends (the sweeper).
    let producing = true;
    let housekeeping = true;
    // A joining run leaves both to the run it joined.
    const keeping = (async () => {
      while (joining === null && housekeeping && running.aborted === null) {
        await sleep(HOUSEKEEPING_EVERY_MS);
        await store.sweep();
        if (producing) await topUp();
      }
    })().catch((error: Error) => running.abort(error)); // not a BUSY (that is waited out): a defect, which stops the run

    const checks: FileCheck[][] = [];
    let brokenAfterKill: number | null = null;
    /** Check the live file, and move what it found finished; `afterKill`: the kill it follows, or null for the last. */
    const check = async (afterKill: number | null) => {
      const found = await db.checkLive();
      checks.push(found);
      if (afterKill !== null && brokenAfterKill === null && found.some((c) => !c.passed)) brokenAfterKill = afterKill;
    };

    let kills = 0;
    let pauses = 0;
    let backendsTerminated = 0;
    /** The run this one joined ended (and dropped its schema) before this one did. */
    let joinedEnded = false;
    try {
      for (const planned of plan) {
        await sleep(planned.afterMs);
        if (planned.signal === 'SIGKILL') {
          if (pg?.terminateBackends === true && db.terminate !== undefined && severs.int(0, 1) === 1) {
            await running.sever(planned.worker, db.terminate, SEVER_MS);
            backendsTerminated += 1;
          } else await running.kill(planned.worker);
          kills += 1;
          await check(kills);
        } else {
          await running.pause(planned.worker, planned.pauseMs ?? 0);
          pauses += 1;
        }
        const counts = running.counts();
        options.onProgress?.({ kills, pauses, plannedKills: options.kills, plannedPauses: options.pauses, finished: counts.done + counts.failed, staleRefused: counts.staleRefused, elapsedMs: Date.now() - startedAt });
        if (brokenAfterKill !== null) break;
      }
    } catch (error) {
      if (!(error instanceof JoinedRunEnded)) throw error;
      joinedEnded = true;
    }

    // The drain: no more signals, no more tasks; every task queued must reach done or failed. A run stopped by a
    // broken check is not drained: what was in flight then is evidence, not a lost intent.
    producing = false;
    await running.unpaused().catch((error: unknown) => {
      if (!(error instanceof JoinedRunEnded)) throw error;
      joinedEnded = true;
    });
    let drained: boolean | null = null;
    // A joining run does not drain: the run it joined does, its producer stopped.
    if (brokenAfterKill === null && joining === null) {
      drained = false;
      const by = Date.now() + DRAIN_MS;
      while (!(drained = (await db.left()) === 0) && Date.now() < by) await sleep(HOUSEKEEPING_EVERY_MS);
    }
    const elapsedMs = Date.now() - startedAt;
    housekeeping = false;
    await keeping;
    if (running.aborted !== null && !(running.aborted instanceof JoinedRunEnded)) throw running.aborted;
    await running.stop();

    // The last check: nobody else has the database open now (but the workers of a run joined, or joining).
    let tasks = { queued: 0, running: 0, done: 0, failed: 0, effects: 0, receipts: 0 };
    if (!joinedEnded) {
      try {
        await check(null);
        const last = await db.last(drained !== null, enqueued);
        checks.push(last.checks);
        tasks = last.tasks;
      } catch (error) {
        if (!(error instanceof JoinedRunEnded)) throw error;
        joinedEnded = true;
      }
    }
    const counts = running.counts();
    const finished = tasks.done + tasks.failed;
    return {
      db: pg === undefined ? 'sqlite' : pg.shown,
      backendsTerminated,
      joined: joining,
      joinedEnded,
      seed: options.seed,
      runner: options.runner,
      workers: options.workers,
      leaseMs: options.leaseMs,
      toolMs: options.toolMs,
      plan: { kills: options.kills, pauses: options.pauses, digest: planDigest(plan) },
      kills,
      pauses,
      // One after every kill, and one at the end: the live file, then both files whole (none when the run joined ended first).
      checksMade: joinedEnded ? checks.length : checks.length - 1,
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
    await workers?.stop();
    await place?.close();
    unregister();
    removeTempDir(dir);
  }
}

/**
 * SQLite's database for the run: one file in the run's folder, the producer's and sweeper's connection and the
 * checker's — two connections, one per role: the sweeper's transactions await between statements, and a check must
 * never find its connection inside one. The checker moves what it checked to the archive (src/torture/archive.ts).
 */
function sqlitePlace(dir: string, busyRetried: <T>(work: () => T | Promise<T>) => Promise<T>): TortureDatabase {
  const file = join(dir, 'torture.db');
  let keeper: ReturnType<typeof openShared> | null = null;
  let checker: ReturnType<typeof openShared> | null = null;
  const close = () => {
    keeper?.close();
    checker?.close();
  };
  try {
    keeper = openShared(file);
    createTortureDatabase(keeper);
    checker = openShared(file);
    attachArchive(checker, join(dir, 'archive.db'));
  } catch (error) {
    close();
    throw error;
  }
  const c = checker;
  const left = c.prepare("SELECT count(*) FROM main.tasks WHERE state IN ('queued', 'running')").pluck();
  return {
    workerDb: file,
    schema: null,
    keeper: SqliteSql.of(keeper),
    checkLive: async () => (await busyRetried(() => checkAndArchive(c, 'torture.db'))).checks,
    left: async () => left.get() as number,
    last: async (drainedOrRunning, enqueued) => ({
      checks: [
        integrity(c, 'main', 'torture.db'),
        integrity(c, 'archive', 'archive.db'),
        ...runChecks(c, taskChecks('main', drainedOrRunning)),
        ...runChecks(c, taskChecks('archive', true)),
        runChecks(c, allAccountedFor(['main', 'archive'], enqueued)),
      ],
      tasks: addFigures(runChecks(c, fileFigures('main')), runChecks(c, fileFigures('archive'))),
    }),
    abandon: close,
    close: async () => close(),
  };
}
