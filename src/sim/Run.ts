/**
 * A run is a value (DESIGN.md): what the simulator returns — the trace, the runner's event log, the final
 * state, the tool's database — before anyone judges it. The checks (src/check) are a pure function of it,
 * and everything a user sees is computed from the judged run.
 */
import type { PlannedFault } from '../faults/FaultPlan.js';
import type { ToolSnapshot } from '../inventory/snapshot.js';
import type { LoggedEvent } from '../runner/EventStore.js';
import type { RunnerState } from '../runner/state.js';
import type { Scenario } from '../scenario/types.js';
import type { TraceEvent } from './events.js';
import type { DatabaseKind } from '../core/storage.js';
import type { TaskRow } from '../queue/QueueStore.js';
import type { ScheduleChoice } from '../scenario/types.js';
import type { ChoiceRecord, Cut } from './workers/Scheduler.js';
import type { Said } from '../core/message.js';

export interface RunnerFailure {
  /** The harness step in which the runner threw (or returned something that is not a state). */
  step: number;
  name: string;
  /** What the runner's error said; a message of the harness's when it made the error (a step that returned no state, a box lost). */
  message: Said;
  stack?: string;
}

export interface Run {
  scenario: Scenario;
  seed: number;
  /** The runner's class name (ReferenceRunner, LearnerRunner, …). */
  runner: string;
  /** Where its databases were: SQLite files or memory, or a schema on PostgreSQL. */
  storage: DatabaseKind;
  trace: TraceEvent[];
  /** The runner's event log as committed, in order. */
  log: LoggedEvent[];
  /** The state the last step returned (null if the run never got one). */
  state: RunnerState | null;
  /** The tool's database at the end. */
  db: ToolSnapshot;
  /** Every planned fault: the scenario's own, then any added; `firedAt` null if it never fired. */
  faults: PlannedFault[];
  /** Requests the runner actually put on the wire. */
  runnerRequests: number;
  steps: number;
  crashes: number;
  runnerError: RunnerFailure | null;
  /** Invariant 7's bound on harness steps, as the run was given it. */
  maxSteps: number;
  /** Dead-letter records replayed through a fresh runner, in order; each starts a new call budget. */
  replays: ReplayRecord[];
  /** The whole task delivered again (a `redeliver_task` fault, docs/spec.md §13): the calls before each; absent when it never was. */
  redeliveries?: Array<{ callsBefore: number; relayCalls: number }>;
  /** The dead-letter table at the end (empty without a `durability.dlq` block). */
  dlq: DlqRow[];
  /**
   * The steps after which the runner held a state its log would not rebuild — a crash at that moment would lose
   * it: the state the step returned and the last one it had committed (in order; empty for a runner that saves
   * every change). The log must rebuild the state at every moment, not only at the end (invariant 4).
   */
  unsaved: UnsavedStep[];
  /** Many workers: the queue's side of the run. Absent with one runner. */
  workers?: WorkersRun;
}

/** What a many-worker run leaves besides the chapter's figures: the queue at the end, and how it was scheduled. */
export interface WorkersRun {
  /** The workers' names, in order (w1, w2, …); the sweeper's lane is `sweeper`. */
  names: string[];
  leaseMs: number;
  sweepEveryMs: number;
  pollMs: number;
  /** The queue's table at the end. */
  tasks: TaskRow[];
  /** Every receipt's token: the grant its reservation committed under. */
  tokens: Array<{ key: string; task_id: string; owner: string; token: number }>;
  /** Every choice the scheduler made, in order: the schedule as it ran. */
  choices: ChoiceRecord[];
  /** The schedule's entries (`workers.schedule`) that named no ready actor at their choice. */
  unapplied: ScheduleChoice[];
  /** Turns taken; and why the run stopped short, if it did. */
  turns: number;
  cut: Cut | null;
}

export interface UnsavedStep {
  step: number;
  /** The last committed event at that moment (null: nothing saved yet). */
  seq: number | null;
  logged: RunnerState | null;
  returned: RunnerState;
}

export interface ReplayRecord {
  dlqId: string;
  /** The calls of the run that ended in the record: the replay counts its own from 0. */
  callsBefore: number;
}

/** One dead-letter record as the run ends: the intent it keeps and what became of it. */
export interface DlqRow {
  dlqId: string;
  status: 'pending' | 'replayed' | 'abandoned';
  task: string;
  action: string;
  key: string | null;
  attempts: number;
  lastError: string;
}
