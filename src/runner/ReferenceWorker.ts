/**
 * The reference worker: claim a task, run it under the grant, finish it (docs/spec.md §10). Each numbered
 * comment is a rule of the lesson. A worker is a process of its own; the harness calls `cycle` again and again
 * (waiting a poll interval after an idle one), and after a crash starts a new worker on new connections.
 *
 * What it does not do is the point: it never asks "is my lease still valid?" before a write. That check is a
 * race — the lease can expire, and the task be granted to another, between the check and the write (a GC pause,
 * a SIGSTOP, a starved heartbeat) — so the store checks the token inside every write's transaction instead, and
 * a refused write (STALE_FENCE) tells the worker it is a zombie: it stops, and writes nothing more.
 */
import type { Clock } from '../core/clock.js';
import type { Grant, TaskRow } from '../queue/QueueStore.js';
import { isContractError, isTransientError } from '../inventory/errors.js';
import type { RunnerState } from './state.js';

/** The queue as a worker sees it: every call crosses the wire and may be interleaved with other workers'. */
export interface QueueClient {
  /** A grant (a lease and a new token), or null when there is nothing to claim. Rejects with TransientError when the reply was lost. */
  claim(): Promise<Grant | null>;
  /** Done: the runner succeeded. Guarded by the grant: rejects with STALE_FENCE when another holds the task now. */
  complete(grant: Grant, status: string): Promise<void>;
  /** Failed for good: the runner ended without success. Guarded like `complete`. */
  fail(grant: Grant, status: string): Promise<void>;
  /** The task's row as it stands now — which proves nothing by the time anything is written. */
  lease(grant: Grant): Promise<TaskRow | null>;
}

/** The harness's side of running a task: recover it from its log and step its runner until it ends, every write under the grant's fence. */
export interface TaskRunner {
  /**
   * `beforeWrite`: called before each write the runner makes (a log line, a request on the wire) — a worker that
   * checks its own lease there (a mistake: src/mutants) throws to stop.
   */
  run(grant: Grant, options?: { beforeWrite?: () => Promise<void> }): Promise<RunnerState>;
}

export interface WorkerDeps {
  queue: QueueClient;
  tasks: TaskRunner;
  /** The worker's own clock (virtual): what it would compare a lease's expiry with. */
  clock: Clock;
}

/** What one cycle came to: nothing to claim, a task finished, the task lost to another holder, a claim to make again. */
export type CycleOutcome = 'idle' | 'finished' | 'lost' | 'retry';

export interface Worker {
  cycle(): Promise<CycleOutcome>;
}

/** A worker the harness can build: one per life of a worker's process. */
export type WorkerClass = new (deps: WorkerDeps) => Worker;

export class ReferenceWorker implements Worker {
  protected readonly queue: QueueClient;
  protected readonly tasks: TaskRunner;
  protected readonly clock: Clock;

  constructor(deps: WorkerDeps) {
    this.queue = deps.queue;
    this.tasks = deps.tasks;
    this.clock = deps.clock;
  }

  async cycle(): Promise<CycleOutcome> {
    // 1. claim: one transaction grants a lease and a new fencing token — or there is nothing to claim
    let grant: Grant | null;
    try {
      grant = await this.queue.claim();
    } catch (error) {
      // The grant may have committed with its reply lost: claim again, and the store re-grants the task to this
      // worker under a new token — the lost one can never write.
      if (isTransientError(error)) return 'retry';
      throw error;
    }
    if (grant === null) return 'idle';
    try {
      // 2. run the task under the grant: every write it makes carries the token, and the store checks it
      const state = await this.tasks.run(grant);
      // 3. finish it, guarded like every other write
      if (state.status === 'succeeded') await this.queue.complete(grant, state.status);
      else await this.queue.fail(grant, state.status);
      return 'finished';
    } catch (error) {
      // 4. a refused write: another holds the task now — stop, and write nothing more
      if (isContractError(error) && error.code === 'STALE_FENCE') return 'lost';
      throw error; // a crash, or a bug: not the worker's to handle
    }
  }
}
