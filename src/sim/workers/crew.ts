/**
 * What the actors of a many-worker run share: the world (clock, seeded streams, fault plan, trace), the one
 * database file, the scheduler, the implementations under test, and the run's bookkeeping — the steps, the
 * crashes, the states the sessions left. It also watches the queue's table for the trace: after every move the
 * harness reads the rows on a connection of its own (so only what was committed) and says what changed, whoever
 * changed it and whatever the store claims; each lease is watched, and its expiry said when it comes.
 */
import { canonicalJson } from '../../core/canonical.js';
import type { SqlConnection } from '../../core/sql.js';
import type { ToolClass } from '../../inventory/InventoryTool.js';
import type { QueueClass, QueueStore, TaskRow } from '../../queue/QueueStore.js';
import type { RunnerClass } from '../../runner/BaseRunner.js';
import { taskLogOps } from '../../queue/QueueStore.js';
import type { LoggedEvent } from '../../runner/EventStore.js';
import type { Policy } from '../../runner/policy.js';
import type { WorkerClass } from '../../runner/ReferenceWorker.js';
import type { RunnerState } from '../../runner/state.js';
import type { Scenario, WorkersSpec } from '../../scenario/types.js';
import type { TaskChange, TaskView } from '../events.js';
import type { RunnerFailure, UnsavedStep } from '../Run.js';
import { failure, returnedNoState } from '../runnerFailure.js';
import type { World } from '../world.js';
import type { Scheduler } from './Scheduler.js';
import type { WorkersDatabase } from './workersDatabase.js';

/** What a many-worker run runs: the runner in each session, the tool, the queue's store, the worker's loop. */
export interface Implementations {
  runner: RunnerClass;
  tool: ToolClass;
  queue: QueueClass;
  worker: WorkerClass;
}

export class Crew {
  steps = 0;
  crashes = 0;
  runnerError: RunnerFailure | null = null;
  /** A worker ended the run from inside (the step bound). */
  halted = false;
  /** The state of the session whose worker finished the task (done or failed), and the last state any session left. */
  finishedState: RunnerState | null = null;
  lastState: RunnerState | null = null;
  readonly unsaved: UnsavedStep[] = [];
  /** Workers that were given a task and have not ended that cycle: the run is not over while one has (a zombie has yet to meet its refusal). */
  readonly holding = new Set<string>();
  readonly #observer: QueueStore;
  readonly #rows = new Map<string, TaskRow>();

  constructor(
    readonly world: World,
    readonly scenario: Scenario,
    readonly spec: WorkersSpec,
    readonly storage: WorkersDatabase,
    readonly scheduler: Scheduler,
    readonly impl: Implementations,
    readonly policy: Policy,
    readonly maxSteps: number,
    observer: QueueStore,
    rows: readonly TaskRow[],
  ) {
    this.#observer = observer;
    for (const row of rows) this.#rows.set(row.task_id, row);
  }

  /** Over: every task finished and nobody in a session — or the run was stopped from inside. */
  over(): boolean {
    if (this.runnerError !== null || this.halted || this.scheduler.errors.length > 0) return true;
    if (this.holding.size > 0) return false;
    return [...this.#rows.values()].every((row) => row.state === 'done' || row.state === 'failed');
  }

  /** The queue's table as last seen. */
  rows(): TaskRow[] {
    return [...this.#rows.values()];
  }

  /** Read the queue's rows (committed only) and say what changed since the last look; watch every new lease. */
  async observe(): Promise<void> {
    const changes: TaskChange[] = [];
    for (const row of await this.#observer.readRows()) {
      const before = this.#rows.get(row.task_id) ?? null;
      if (before !== null && canonicalJson(before) === canonicalJson(row)) continue;
      this.#rows.set(row.task_id, row);
      const from = view(before);
      const to = view(row);
      if (canonicalJson(from) !== canonicalJson(to)) changes.push({ task: row.task_id, from, to });
      if (row.state === 'running' && row.lease_until_ms !== null && (before?.lease_until_ms !== row.lease_until_ms || before.token !== row.token)) this.#watch(row);
    }
    if (changes.length > 0) this.world.trace.emit({ type: 'tasks', changes });
  }

  /** When this lease's time comes, say it expired — if it is still that very lease, unrenewed and unfinished. */
  #watch(row: TaskRow): void {
    const { task_id, owner, token, lease_until_ms } = row;
    this.scheduler.timer(lease_until_ms!, () => {
      const now = this.#rows.get(task_id);
      if (now?.state !== 'running' || now.owner !== owner || now.token !== token || now.lease_until_ms !== lease_until_ms) return;
      const { trace } = this.world;
      const lane = trace.lane;
      trace.lane = owner ?? lane;
      trace.emit({ type: 'lease_expired', task: task_id, owner: owner ?? '?', token, at: lease_until_ms! });
      trace.lane = lane;
    });
  }

  /** A worker finished the task (its completion or failure committed): the state its session ended with is the run's. */
  finished(state: RunnerState | null): void {
    if (state !== null) this.finishedState = state;
  }

  /** The task's log as committed, in order. */
  async readLog(connection: SqlConnection): Promise<LoggedEvent[]> {
    const rows = await connection.run(taskLogOps(connection.dialect));
    return rows.map(({ seq, label, state }) => ({ seq, label, state: JSON.parse(state) as RunnerState }));
  }

  runnerThrew(error: unknown): void {
    this.runnerError = failure(this.steps, error);
    this.world.trace.emit({ type: 'runner_error', errorName: this.runnerError.name, message: this.runnerError.message, ...(this.runnerError.stack ? { stack: this.runnerError.stack } : {}) });
  }

  runnerReturned(value: unknown): void {
    this.runnerError = returnedNoState(this.steps, value);
    this.world.trace.emit({ type: 'runner_error', errorName: this.runnerError.name, message: this.runnerError.message });
  }
}

function view(row: TaskRow | null): TaskView | null {
  return row === null ? null : { state: row.state, owner: row.owner, token: row.token, leaseUntil: row.lease_until_ms, finishedToken: row.finished_token };
}
