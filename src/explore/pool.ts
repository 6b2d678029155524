/**
 * Runs exploration tasks, in this thread or spread over worker threads (one per core by default). Workers
 * pull small batches as they finish, so a slow scenario does not hold the others up; the tallies come back
 * in task order, so the report does not depend on which worker ran what.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Scenario } from '../scenario/types.js';
import type { StorageKind } from '../core/storage.js';
import { Tally, type TallyData } from './tally.js';
import type { Bases } from './fork.js';
import { runTask, type Task } from './task.js';
import type { Target } from './target.js';
import type { RunnerSource } from '../target/runners.js';
import type { WorkerRequest, WorkerSetup } from './worker.js';
import { startWorker } from '../core/workerThread.js';

export interface PoolOptions {
  scenarios: Scenario[];
  depth: number;
  /** Many workers: pre-emptions per run (interleavings.ts). */
  preemptions: number;
  seed: number;
  storage: StorageKind;
  /** The PostgreSQL server every schedule runs on (each thread its own connections), or absent. */
  postgres?: string;
  /** Threads to use; 1 (or a runner given as a class, which cannot cross to a thread) runs here. */
  workers: number;
  source: RunnerSource | null;
  target: Target;
  /** The scenarios as written, paused for forking, in this thread (workers make their own). */
  bases: Bases;
  onProgress?: (done: number, total: number) => void;
}

/**
 * A worker's young generation, in MB. Its runs leave only short-lived garbage, so a small nursery costs no
 * measurable time, and depth 2's peak memory fell from ~195 to ~175 MB (V8's default is 16 on 64-bit).
 */
const WORKER_YOUNG_MB = 4;

/** Tasks run between two turns of the event loop when everything runs in this thread. */
const YIELD_EVERY = 8;

const nextTurn = () => new Promise<void>((resume) => setImmediate(resume));

export function defaultWorkers(): number {
  return Math.max(1, Math.min(availableParallelism(), 8));
}

export async function runTasks(tasks: readonly Task[], options: PoolOptions): Promise<Tally[]> {
  const threads = options.source === null ? 1 : Math.min(options.workers, Math.ceil(tasks.length / 16));
  if (threads <= 1) {
    const tallies: Tally[] = [];
    for (const [i, task] of tasks.entries()) {
      tallies.push(await runTask(options.scenarios[task.scenario]!, task.first, options.depth, options.target, options.bases, options.preemptions));
      options.onProgress?.(i + 1, tasks.length);
      // A crash's committed image is a buffer SQLite allocated, freed by Node only on a later turn of the
      // event loop: without a turn now and then, one thread's depth 2 held ~600 MB of them at the end.
      if ((i + 1) % YIELD_EVERY === 0) await nextTurn();
    }
    return tallies;
  }
  return inWorkers(tasks, threads, options as PoolOptions & { source: RunnerSource });
}

function inWorkers(tasks: readonly Task[], threads: number, options: PoolOptions & { source: RunnerSource }): Promise<Tally[]> {
  const batch = options.depth >= 2 ? 1 : 8;
  // Batches a worker holds at once. The main thread answers a worker only between two of its own tasks, and
  // depth 2's tasks take from ~1 to ~60 ms: a worker holding one batch waited for the next ~1/3 of its time
  // (measured), so at depth 2 it holds four, each run on a turn of its own (worker.ts). Depth 1's batches are
  // even and the run short: a batch held back only lengthens the tail (measured: no gain).
  const inFlight = options.depth >= 2 ? 4 : 1;
  const results: Tally[] = new Array<Tally>(tasks.length);
  const setup: WorkerSetup = { scenarios: options.scenarios, source: options.source, seed: options.seed, storage: options.storage, ...(options.postgres !== undefined ? { postgres: options.postgres } : {}), depth: options.depth, preemptions: options.preemptions };
  let next = 0;
  let done = 0;
  return new Promise<Tally[]>((resolve, reject) => {
    const workers: Worker[] = [];
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      for (const w of workers) void w.terminate();
      reject(error);
    };
    const stopped = new Set<Worker>();
    const feed = (worker: Worker) => {
      if (next >= tasks.length) {
        if (!stopped.has(worker)) worker.postMessage({ stop: true } satisfies WorkerRequest);
        stopped.add(worker);
        return;
      }
      const id = next;
      const slice = tasks.slice(id, id + batch);
      next += slice.length;
      worker.postMessage({ id, tasks: slice } satisfies WorkerRequest);
    };
    // The main thread works too, from the first moment: a worker spends its first ~0.2 s loading modules,
    // and with two cores a main thread that only waits leaves one of them idle. It runs a batch at a time
    // and yields between batches, so the workers are fed as soon as they ask.
    const spawned = threads - 1;
    let mainDone = false;
    let exited = 0;
    const finish = () => {
      if (failed || !mainDone || exited < spawned) return;
      if (done === tasks.length) resolve(results);
      else fail(new Error(`explore workers stopped after ${done} of ${tasks.length} tasks`));
    };
    const mainLoop = async () => {
      while (!failed && next < tasks.length) {
        const id = next;
        const slice = tasks.slice(id, id + batch);
        next += slice.length;
        for (const [i, task] of slice.entries()) results[id + i] = await runTask(options.scenarios[task.scenario]!, task.first, options.depth, options.target, options.bases, options.preemptions);
        done += slice.length;
        options.onProgress?.(done, tasks.length);
        await nextTurn();
      }
      mainDone = true;
      finish();
    };
    for (let t = 0; t < spawned; t += 1) {
      const worker = startWorker(import.meta.url, 'explore', { workerData: setup, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB } });
      workers.push(worker);
      worker.on('message', (message: { ready?: true; id?: number; tallies?: TallyData[]; error?: string }) => {
        if (message.error !== undefined) return fail(new Error(`explore worker: ${message.error}`));
        if (message.tallies !== undefined) {
          message.tallies.forEach((data, i) => (results[message.id! + i] = Tally.from(data)));
          done += message.tallies.length;
          options.onProgress?.(done, tasks.length);
        }
        // Ready: `inFlight` batches; then one more for each one done.
        if (message.ready) for (let i = 0; i < inFlight; i += 1) feed(worker);
        else feed(worker);
      });
      worker.on('error', fail);
      worker.on('exit', () => {
        exited += 1;
        finish();
      });
    }
    mainLoop().catch((error: unknown) => fail(error instanceof Error ? error : new Error(String(error))));
  });
}
