/**
 * One life of a real worker process (`faultlab torture`, docs/spec.md §19): the simulated worker's protocol, run on
 * a connection of the process's own. The same code as src/sim/workers/life.ts drives — the worker's loop
 * (ReferenceWorker, or a mutant's), the queue's claim, renew, complete and fail under the fence (QueueStore), the
 * tool's reserve with the fence's check and the ledger row's token in its one transaction (InventoryTool), the
 * runner stepping the task from its log (ReferenceRunner) — with no scheduler, no trace and no planned fault: the
 * faults are real signals from the torture's driver, and the interleaving is the operating system's.
 *
 * What differs from the simulation is only what a real process must do that a simulated one need not: SQLite
 * answers BUSY when another process holds the write lock (every statement that writes, the tool's reserve included,
 * waits and tries again — nothing was done, so trying again is safe), and time is the process's clock. Neither is
 * read here: the process's entry (src/cli/torture/worker.ts) hands in a Clock and the wait. On PostgreSQL
 * (`--db postgres`) the connection simply waits on the run's advisory lock, as a real worker does: no BUSY.
 */
import { canonicalRoundTrip, jsonCopy } from '../core/canonical.js';
import type { Clock } from '../core/clock.js';
import { RENEW_WHEN_LEFT } from '../core/defaults.js';
import { message, MessageError } from '../core/message.js';
import type { Rng } from '../core/rng.js';
import { isBusy } from '../core/busy.js';
import type { Db } from '../core/storage.js';
import { all, SqliteSql, statement, type SqlConnection } from '../core/sql.js';
import { isContractError } from '../inventory/errors.js';
import type { Fence, Grant, QueueStore, Turns } from '../queue/QueueStore.js';
import type { EventLog, LoggedEvent } from '../runner/EventStore.js';
import { ScriptedPolicy } from '../runner/policy.js';
import type { QueueClient, TaskRunner, Worker } from '../runner/ReferenceWorker.js';
import { initialState, type RunnerState, type ToolAction } from '../runner/state.js';
import type { ToolClient } from '../runner/ToolClient.js';
import type { Implementations } from '../sim/workers/crew.js';
import type { TortureCode } from './codes.js';
import { tortureScript, tortureTask } from './intents.js';

/** What a worker process runs: the four parts a simulated run is handed — the reference's, or a mutant's (src/mutants). */
export type WorkerParts = Implementations;

/** What one life counted, reported to the driver as it goes (a SIGKILL loses what was not yet reported). */
export interface LifeCounts {
  /** Grants received, re-claims included. */
  grants: number;
  /** Tasks this life completed (done) and failed for good, each under its grant. */
  done: number;
  failed: number;
  /** Writes the store refused as stale (STALE_FENCE): each a zombie stopped. */
  staleRefused: number;
  /** Statements that met another process's write lock and were tried again. */
  busyRetries: number;
}

export interface ProcessLifeDeps {
  /** The process's own connection: to the SQLite file, or to the run's schema on PostgreSQL (which waits on the lock). */
  db: Db | SqlConnection;
  clock: Clock;
  /** The tool's stream (the reservation ids it makes). */
  rng: Rng;
  /** The worker's name, the same in every life: a new life re-claims what the last one held. */
  name: string;
  leaseMs: number;
  parts: WorkerParts;
  /** SQLite answered BUSY: resolves when it is worth trying again (the entry waits a little, in real time). */
  wait(): Promise<void>;
  /** A request's time on the wire before the tool has it: the network a real tool sits behind (none by default). */
  onTheWire(): Promise<void>;
  /** Steps one session may take before the worker gives up on its runner (a loop, not a fault). */
  maxSteps: number;
}

/** A runner stepped past the bound: the process ends, as the simulation halts a run (src/sim/workers/life.ts). */
export class StepBoundError extends MessageError {
  override readonly name = 'StepBoundError';
  readonly code = 'STEP_BOUND';
}

const isStale = (error: unknown) => isContractError(error) && error.code === 'STALE_FENCE';

export class ProcessLife implements QueueClient, TaskRunner {
  readonly worker: Worker;
  readonly counts: LifeCounts = { grants: 0, done: 0, failed: 0, staleRefused: 0, busyRetries: 0 };
  readonly #d: ProcessLifeDeps;
  readonly #store: QueueStore;
  readonly #turns: Turns;
  /** The lease's expiry as this life last heard it (its grant, a renewal). */
  #leaseUntil = 0;

  constructor(deps: ProcessLifeDeps) {
    this.#d = deps;
    // No harness to interleave: a statement boundary is nothing, a BUSY is a real wait.
    this.#turns = {
      at: async () => {},
      busy: async () => {
        this.counts.busyRetries += 1;
        await deps.wait();
      },
    };
    this.#store = new deps.parts.queue({ db: deps.db, clock: deps.clock, leaseMs: deps.leaseMs, turns: this.#turns });
    this.worker = new deps.parts.worker({ queue: this, tasks: this, clock: deps.clock });
  }

  // ── the queue, as the worker reaches it ──

  async claim(): Promise<Grant | null> {
    const grant = await this.#store.claim(this.#d.name);
    if (grant !== null) {
      this.counts.grants += 1;
      this.#leaseUntil = grant.leaseUntilMs;
    }
    return grant;
  }

  async complete(grant: Grant, status: string): Promise<void> {
    await this.#fenced(() => this.#store.complete(fenceOf(grant), status));
    this.counts.done += 1;
  }

  async fail(grant: Grant, status: string): Promise<void> {
    await this.#fenced(() => this.#store.fail(fenceOf(grant), status));
    this.counts.failed += 1;
  }

  async lease(grant: Grant) {
    return this.#read(() => this.#store.readRow(grant.task));
  }

  // ── a session: the task run under one grant ──

  async run(grant: Grant, options: { beforeWrite?: () => Promise<void> } = {}): Promise<RunnerState> {
    const { parts, maxSteps } = this.#d;
    const fence = fenceOf(grant);
    const task = tortureTask(grant.task);
    const events = this.#log(fence, options.beforeWrite);
    const runner = new parts.runner({ policy: new ScriptedPolicy(tortureScript(task)), events, tools: this.#wire(fence, options.beforeWrite) });
    await runner.ready?.();
    // Recovery: the task's state is its log's last committed line, whoever wrote it.
    let state = await events.last();
    state ??= await events.save(initialState(task), 'started');
    for (let steps = 0; state.status === 'running'; steps += 1) {
      if (steps >= maxSteps) throw new StepBoundError(message<TortureCode>('torture.worker.stepBound', { worker: this.#d.name, task: grant.task, steps }));
      await this.#heartbeat(fence);
      state = await runner.step(state); // a runner's error ends the process: not the worker's to handle
    }
    return state;
  }

  /** The heartbeat, between two steps: renew once less than half the lease is left (as the simulated worker does). */
  async #heartbeat(fence: Fence): Promise<void> {
    const { clock, leaseMs } = this.#d;
    if (clock.nowMs() < this.#leaseUntil - leaseMs * RENEW_WHEN_LEFT) return;
    this.#leaseUntil = await this.#fenced(() => this.#store.renew(fence));
  }

  /** The task's log as the runner writes it: every line under the grant's fence, in the INSERT itself. */
  #log(fence: Fence, beforeWrite: (() => Promise<void>) | undefined): EventLog {
    const life = this;
    const store = this.#store;
    return {
      async save<S extends RunnerState>(state: S, label: string): Promise<S> {
        await beforeWrite?.();
        const { json } = canonicalRoundTrip(state);
        await life.#fenced(() => store.append(fence, label, json));
        return state;
      },
      async last() {
        return (await this.lastEvent())?.state ?? null;
      },
      async lastEvent(): Promise<LoggedEvent | null> {
        const row = await life.#read(() => store.lastEvent(fence.task));
        return row === null ? null : { seq: row.seq, label: row.label, state: JSON.parse(row.state) as RunnerState };
      },
      async all(): Promise<LoggedEvent[]> {
        const rows = await life.#read(() => life.#taskLog(fence.task));
        return rows.map((row) => ({ seq: row.seq, label: row.label, state: JSON.parse(row.state) as RunnerState }));
      },
    };
  }

  /** The wire: the tool on this process's connection, the holder's fence checked inside the reserve's transaction. */
  #wire(fence: Fence, beforeWrite: (() => Promise<void>) | undefined): ToolClient {
    const { parts, db, rng, clock } = this.#d;
    const tool = new parts.tool({ db, rng, clock });
    const guard = this.#store.toolFence(fence);
    return {
      execute: async (action: ToolAction, at) => {
        if (action.name === 'reserve') await beforeWrite?.();
        await this.#d.onTheWire();
        // A reserve that met the write lock did nothing (its BEGIN IMMEDIATE failed): the same request again is safe.
        const value = await this.#fenced(() => this.#busyRetried(() => tool.connection.run(tool.ops({ name: action.name, args: jsonCopy(action.args) }, { taskId: at.taskId, fence: guard }))));
        return jsonCopy(value); // the reply crosses the wire as a copy
      },
    };
  }

  /** A write under the fence: a refusal is counted, and thrown on to the runner and the worker. */
  async #fenced<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isStale(error)) this.counts.staleRefused += 1;
      throw error;
    }
  }

  /** A read; in WAL it waits for nobody, but a connection may find the WAL being recovered after a kill (SQLITE_BUSY_RECOVERY). */
  #read<T>(read: () => T | Promise<T>): Promise<T> {
    return this.#busyRetried(read);
  }

  async #busyRetried<T>(work: () => T | Promise<T>): Promise<T> {
    for (;;) {
      try {
        return await work();
      } catch (error) {
        if (!isBusy(error)) throw error;
        await this.#turns.busy('write');
      }
    }
  }

  #taskLog(task: string): Array<{ seq: number; label: string; state: string }> | Promise<Array<{ seq: number; label: string; state: string }>> {
    const { db } = this.#d;
    return ('dialect' in db ? db : SqliteSql.of(db)).run(all(TASK_LOG, task));
  }
}

/** One task's log, in order. */
const TASK_LOG = statement<[string], { seq: number; label: string; state: string }>('torture.taskLog', {
  sqlite: 'SELECT seq, label, state FROM events WHERE task_id = ? ORDER BY seq',
  postgres: 'SELECT seq, label, state FROM events WHERE task_id = $1 ORDER BY seq',
});

function fenceOf(grant: Grant): Fence {
  return { task: grant.task, owner: grant.owner, token: grant.token };
}
