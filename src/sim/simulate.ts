/**
 * The harness. Three entry points over one core:
 * - `simulate(scenario, options)`: a run of the scenario from its start;
 * - `simulate(scenario, { resume: checkpoint })`: the run a paused one would have gone on with (explore's
 *   forking, src/explore/fork.ts) — the same core, from the pause;
 * - `replayDeadLetter(scenario, kept, options)`: a dead letter a kept run left, carried through a fresh runner.
 * The core builds the world (world.ts: the clock, the rng, the fault plan, the trace), opens the databases
 * (start.ts: the one seam of the speed machinery), starts the runner's process (process.ts: the crash model
 * and recovery, with its commit points) and calls `step` until the run ends. A runner is awaited at every
 * step: the awaits on its log and on the wire are the only points where the run can be interleaved, which is
 * what lets one scheduler drive several actors and an asynchronous database client sit under the same
 * harness (docs/architecture.md). `judge` (src/check/verdict.ts) turns the Run into a RunResult.
 */
import { canonicalJson, jsonCopy } from '../core/canonical.js';
import { isContractError, isTransientError } from '../inventory/errors.js';
import type { ChargeResult, ChargeStatus } from '../inventory/PaymentService.js';
import { DEFAULT_RELAY_ATTEMPTS, DEFAULT_SEED, MAX_STEPS } from '../core/defaults.js';
import { DiskFullError, isDiskFull } from '../core/environment.js';
import { tmpdir } from 'node:os';
import { sqliteStorage, type RunDatabases, type Storage, type StorageKind } from '../core/storage.js';
import type { DlqRecord } from '../durability/dlq/DlqRecord.js';
import { DlqError } from '../durability/errors.js';
import { isDeadIntent, replayState, type DeadIntent } from '../durability/seams/deadLetter.js';
import { revokedTools, type FaultSpec } from '../faults/types.js';
import { InventoryTool, type ToolClass } from '../inventory/InventoryTool.js';
import { readToolRows } from '../inventory/rows.js';
import type { RunnerClass } from '../runner/BaseRunner.js';
import { readEventRows } from '../runner/EventStore.js';
import { ScriptedPolicy } from '../runner/policy.js';
import { ReferenceRunner } from '../runner/ReferenceRunner.js';
import { initialState, type RunnerState } from '../runner/state.js';
import { usesLimits, type Scenario } from '../scenario/types.js';
import type { Checkpoint } from './checkpoint.js';
import type { KeptConnections } from './keptConnections.js';
import { RunnerProcess } from './process.js';
import { crashCaughtReturned, crashCaughtThrew, failure, looksLikeState, returnedNoState } from './runnerFailure.js';
import type { DlqRow, ReplayRecord, Run, RunnerFailure, UnsavedStep } from './Run.js';
import { defaultStart, openDatabases, type Start } from './start.js';
import { newWorld, type World } from './world.js';
import { simulateWorkers, type WorkersOptions } from './workers/simulateWorkers.js';
import { isLearnerWorker } from '../box/boxedWorker.js';
import { message, MessageError } from '../core/message.js';

export { SEAM_ORDER } from './process.js';

export interface SimulateOptions extends WorkersOptions {
  runner?: RunnerClass;
  seed?: number;
  /** 'file' (default): two SQLite files in a fresh temporary folder. 'memory': in-memory, same crash semantics. */
  storage?: StorageKind;
  /** Faults added on top of the scenario's own (the explorer's schedules). */
  extraFaults?: readonly FaultSpec[];
  /** Invariant 7's bound on harness steps. */
  maxSteps?: number;
  /** The tool implementation (a deliberately broken store, for the mutant tests). */
  tool?: ToolClass;
  /** Keep the databases in this folder (claimed for this run alone): file storage runs there, memory storage writes its images there. */
  keepDir?: string;
  /**
   * Exploration: resume a run of this scenario, seed and runner paused between two steps (checkpoint.ts)
   * instead of starting it; `extraFaults` are the paused run's added faults followed by the new ones. For
   * in-memory storage, a scenario without pillars, and a runner that keeps nothing between steps.
   */
  resume?: Checkpoint;
  /** Exploration: handed a checkpoint at every step boundary where no transaction is open. */
  onCheckpoint?: (checkpoint: Checkpoint) => void;
  /**
   * Speed: run on this thread's kept connections, restored to the run's starting rows, instead of opening two
   * databases (keptConnections.ts). In-memory storage only; for a runner and tool that keep nothing of a run
   * once it is over.
   */
  kept?: KeptConnections;
  /**
   * Run on the PostgreSQL server at this URL instead of SQLite: the run's databases are a schema of its own there
   * (src/postgres/storage.ts), the same protocol runs on them — the pillars' stores' included — and a crash really
   * closes their connections. For one runner, and for many workers (one schema they share).
   */
  postgres?: string;
}

/** A run of the scenario from its start, or (with `resume`) from where a paused run of it stood. */
export function simulate(scenario: Scenario, options: SimulateOptions = {}): Promise<Run> {
  // Many workers: their own harness on one shared file (src/sim/workers) — the speed machinery is for one runner.
  if (scenario.workers !== undefined) {
    // On PostgreSQL, one schema for the run; a learner's worker (its SQL is SQLite's) is refused before (src/cli/postgresCheck.ts).
    if (options.postgres !== undefined && (options.keepDir !== undefined || isLearnerWorker(options.queue))) {
      return Promise.reject(new TypeError('simulate: many workers on PostgreSQL keep no folder, and run the reference queue or a broken one, not a learner\'s (its SQL is SQLite\'s)'));
    }
    return simulateWorkers(scenario, options);
  }
  // A learner's worker (the second exercise) is a queue: a scenario of one runner has none for it to run on.
  if (isLearnerWorker(options.queue)) return Promise.reject(new MessageError(message('box.worker.notForScenario', { name: options.queue!.name, scenario: scenario.id })));
  const kind = options.storage ?? 'file';
  const fast = options.resume !== undefined || options.onCheckpoint !== undefined || options.kept !== undefined;
  if (fast && (kind !== 'memory' || options.keepDir !== undefined || scenario.durability || usesLimits(scenario))) {
    return Promise.reject(new TypeError('simulate: checkpoints and kept connections are for in-memory runs of the chapter\'s scenarios (no pillars, no limits), with no folder to keep'));
  }
  if (options.postgres !== undefined && (fast || options.keepDir !== undefined)) {
    return Promise.reject(new TypeError('simulate: on PostgreSQL a run starts from its scenario and keeps no folder'));
  }
  const start: Start = options.kept ? { kind: 'lent', kept: options.kept } : defaultStart(kind);
  return harness(scenario, options, start, options.resume ? { kind: 'resume', checkpoint: options.resume } : { kind: 'task' });
}

/**
 * The operator's replay of a dead letter a kept run left (`faultlab run --keep-db DIR`, then `faultlab dlq DIR
 * --replay ID`): DIR's databases opened as they are, and the record's intent carried through a fresh runner
 * with its key. The run's checks then cover the whole log, the replay included.
 */
export function replayDeadLetter(scenario: Scenario, kept: { dir: string; dlqId: string }, options: Omit<SimulateOptions, 'resume' | 'onCheckpoint' | 'kept' | 'keepDir' | 'storage'> = {}): Promise<Run> {
  return harness(scenario, { ...options, storage: 'file' }, { kind: 'kept', dir: kept.dir }, { kind: 'dead_letter', dlqId: kept.dlqId, dir: kept.dir });
}

/** How the run begins: the task from its start, a paused run going on, or a kept dead letter replayed. */
type Beginning = { kind: 'task' } | { kind: 'resume'; checkpoint: Checkpoint } | { kind: 'dead_letter'; dlqId: string; dir: string };

async function harness(scenario: Scenario, options: SimulateOptions, start: Start, beginning: Beginning): Promise<Run> {
  const seed = options.seed ?? DEFAULT_SEED;
  const resume = beginning.kind === 'resume' ? beginning.checkpoint : undefined;
  const world = newWorld(scenario, seed, options.extraFaults ?? [], resume);
  const storage: RunDatabases =
    options.postgres !== undefined
      ? await (await import('./postgresStart.js')).openPostgresDatabases(scenario, options.postgres)
      : openDatabases(scenario, {
          start,
          storage: options.storage ?? 'file',
          ...(options.keepDir !== undefined ? { keepDir: options.keepDir } : {}),
          ...(resume ? { content: resume.content } : {}),
        });
  try {
    const RunnerImpl = options.runner ?? ReferenceRunner;
    const spec = { scenario, runner: RunnerImpl, tool: options.tool ?? InventoryTool, policy: new ScriptedPolicy(scenario.script) };
    const runnerProcess = await RunnerProcess.start(world, storage, spec);
    const run = new Drive(world, runnerProcess, scenario, options.maxSteps ?? MAX_STEPS, resume, options.onCheckpoint);
    if (beginning.kind === 'dead_letter') {
      const { dlq, events } = runnerProcess.current;
      const record = dlq === null ? undefined : await dlq.connection.run(dlq.getOps(beginning.dlqId));
      if (record === undefined || dlq === null) throw new DlqError('DLQ_NOT_FOUND', `no dead letter ${beginning.dlqId} in ${beginning.dir}`);
      if (record.status !== 'pending') throw new DlqError('DLQ_INVALID_TRANSITION', `${beginning.dlqId} is ${record.status}; only a pending record may be replayed`);
      await run.replay(record, 0, (await events.last())?.calls ?? 0);
    } else {
      if (beginning.kind === 'task') run.begin(() => runnerProcess.current.events.save(initialState(scenario.task), 'started'));
      await run.toEnd();
      await run.afterTask();
      // A pillar scenario may ask for its dead letter to be replayed later, by the harness as the operator.
      const replayAfterMs = world.pillars.dlq?.replayAfterMs;
      const ended = run.state;
      const dlq = runnerProcess.current.dlq;
      const record = replayAfterMs !== undefined && run.runnerError === null && ended !== null && isDeadIntent(ended) && dlq !== null ? (await dlq.connection.run(dlq.listPendingOps())).at(-1) : undefined;
      if (record !== undefined && replayAfterMs !== undefined) await run.replay(record, replayAfterMs, ended!.calls);
    }
    world.trace.emit({ type: 'finished', status: run.state?.status ?? 'none', steps: run.steps });
    const { events, dlq, network } = runnerProcess.current;
    return {
      scenario,
      seed,
      runner: RunnerImpl.name || 'anonymous runner',
      storage: storage.kind,
      trace: world.trace.events,
      log: await events.all(world.committed),
      state: run.state,
      db: await network.snapshot(),
      faults: world.plan.faults,
      runnerRequests: world.counters.runnerRequests,
      steps: run.steps,
      crashes: run.crashes,
      runnerError: run.runnerError,
      maxSteps: run.maxSteps,
      replays: run.replays,
      ...(run.redeliveries.length > 0 ? { redeliveries: run.redeliveries } : {}),
      dlq: dlq === null ? [] : (await dlq.connection.run(dlq.listOps())).map(dlqRow),
      unsaved: run.unsaved,
    };
  } finally {
    await storage.dispose();
  }
}

/** The step loop: step until the run ends (or the runner fails), recovering from every crash with a new runner. */
class Drive {
  state: RunnerState | null;
  steps: number;
  crashes: number;
  runnerError: RunnerFailure | null = null;
  readonly replays: ReplayRecord[] = [];
  /** The task delivered again (docs/spec.md §13): the calls before each redelivery. */
  readonly redeliveries: Array<{ callsBefore: number; relayCalls: number }> = [];
  readonly unsaved: UnsavedStep[];
  #first: (() => Promise<RunnerState>) | null = null;

  constructor(
    readonly world: World,
    readonly runnerProcess: RunnerProcess,
    readonly scenario: Scenario,
    readonly maxSteps: number,
    readonly resume: Checkpoint | undefined,
    readonly onCheckpoint: ((checkpoint: Checkpoint) => void) | undefined,
  ) {
    this.state = resume ? jsonCopy(resume.state) : null;
    this.steps = resume?.steps ?? 0;
    this.crashes = resume?.crashes ?? 0;
    this.unsaved = resume ? [...resume.unsaved] : [];
  }

  /** The first save of the run (its `started`, or a replay's first event), made inside the loop so a crash after it is recovered. */
  begin(first: () => Promise<RunnerState>): void {
    this.#first = first;
  }

  async toEnd(): Promise<void> {
    const { world, runnerProcess, scenario } = this;
    const { trace } = world;
    for (;;) {
      const { events, runner } = runnerProcess.current;
      try {
        if (this.#first !== null) {
          const first = this.#first;
          this.#first = null;
          this.state = await first();
        }
        this.state ??= (await events.last()) ?? (await events.save(initialState(scenario.task), 'started'));
        // A permission revoked (docs/spec.md §5) reaches the runner with the task it is handed at its next step.
        const state: RunnerState = (this.state = withRevocations(this.state, revokedTools(world.plan.faults)));
        if (this.onCheckpoint && !runnerProcess.storage.toolSql.inTransaction && !runnerProcess.storage.eventsSql.inTransaction) this.onCheckpoint(this.#checkpoint(state, sqliteStorage(runnerProcess.storage)!));
        if (state.status !== 'running' || this.steps >= this.maxSteps) return;
        this.steps += 1;
        trace.step = this.steps;
        const returned = await runner.step(state);
        const crashed = runnerProcess.crashed;
        if (crashed !== null) {
          // The runner swallowed the crash and returned; the process is dead all the same. Said in the trace,
          // so a check can fail the run however its figures came out.
          trace.emit({ type: 'crash_caught', how: crashCaughtReturned() });
          throw crashed;
        }
        if (!looksLikeState(returned)) {
          this.runnerError = returnedNoState(this.steps, returned);
          trace.emit({ type: 'runner_error', errorName: this.runnerError.name, message: this.runnerError.message });
          return;
        }
        this.state = returned;
        // The state the step leaves must be one a crash now would rebuild: its last committed event.
        const saved = world.lastSaved;
        if (saved === null || canonicalJson(returned) !== saved.json) {
          this.unsaved.push({ step: this.steps, seq: saved?.seq ?? null, logged: saved === null ? null : jsonCopy(saved.state), returned: jsonCopy(returned) });
        }
      } catch (error) {
        const crashed = runnerProcess.crashed;
        if (crashed !== null) {
          // What came out of step is not the crash itself: the runner caught it and went on (a save on the
          // closed database, or an error of its own). Unless it was the note above, rethrowing it.
          if (error !== crashed) trace.emit({ type: 'crash_caught', how: crashCaughtThrew(error) });
          this.crashes += 1;
          this.state = (await runnerProcess.recover()).state;
          continue;
        }
        // A full disk is the machine's failure, not the runner's: the run stops and the command says so.
        if (isDiskFull(error)) throw new DiskFullError(runnerProcess.storage.dir ?? runnerProcess.storage.keptIn ?? tmpdir(), error);
        this.runnerError = failure(this.steps, error);
        trace.emit({ type: 'runner_error', errorName: this.runnerError.name, message: this.runnerError.message, ...(this.runnerError.stack ? { stack: this.runnerError.stack } : {}) });
        return;
      }
    }
  }

  /**
   * What happens once the task's delivery has ended (docs/spec.md §13, §14.4): the outbox's relay delivers what
   * is left in the outbox, and a planned redelivery hands the whole task to a fresh runner later on — each
   * through the same wire, the same crash model and the same step loop.
   */
  async afterTask(): Promise<void> {
    const { world, runnerProcess } = this;
    for (;;) {
      if (this.runnerError !== null || this.state === null) return;
      const relayed = await this.relay();
      if (this.runnerError !== null || this.state === null) return;
      const redelivery = world.plan.redelivery(world.trace.step);
      if (redelivery === null) return;
      const afterMs = redelivery.spec.at.after_ms ?? 0;
      const callsBefore = this.state.calls;
      world.trace.emit({ type: 'fault', fault: redelivery.spec, index: redelivery.index });
      world.clock.advance(afterMs);
      world.trace.emit({ type: 'redelivery', afterMs });
      this.redeliveries.push({ callsBefore, relayCalls: relayed });
      world.counters.callOffset += callsBefore + relayed; // the wire numbers calls across the whole scenario
      await runnerProcess.restart();
      this.begin(() => runnerProcess.current.events.save(initialState(this.scenario.task), 'redelivered'));
      await this.toEnd();
    }
  }

  /**
   * The outbox's relay (docs/spec.md §14.4): every message not yet settled, oldest first, at least once — and
   * effectively once, because each attempt first asks the service whether the reference was charged. Its calls
   * are numbered after the task's; a crash on its way is the same crash, recovered the same way. Returns the
   * calls it made.
   */
  async relay(): Promise<number> {
    const { world, runnerProcess, scenario } = this;
    if (scenario.remote === undefined) return 0;
    const attempts = scenario.remote.relay_attempts ?? DEFAULT_RELAY_ATTEMPTS;
    const base = world.counters.callOffset + (this.state?.calls ?? 0);
    let calls = 0;
    const start = world.counters.relayCalls ?? 0;
    const next = () => {
      world.counters.relayCalls = (world.counters.relayCalls ?? 0) + 1;
      calls = world.counters.relayCalls - start;
      return base + calls;
    };
    for (;;) {
      const { tool, network } = runnerProcess.current;
      const message = await tool.connection.run(tool.outboxNextOps());
      if (message === null) return calls;
      const emit = (what: 'picked' | 'found' | 'sent' | 'declined' | 'gave_up', attempt: number) =>
        world.trace.emit({ type: 'relay', id: message.id, ref: message.ref, what, attempt });
      if (message.attempts >= attempts) {
        await tool.connection.run(tool.outboxSettleOps(message.id, 'gave_up'));
        emit('gave_up', message.attempts);
        continue;
      }
      try {
        const attempt = await tool.connection.run(tool.outboxAttemptOps(message.id));
        emit('picked', attempt);
        const status = (await network.relay({ kind: 'tool', name: 'charge_status', args: { ref: message.ref } }, next(), attempt, message.task_id)) as ChargeStatus;
        if (status.found) {
          await tool.connection.run(tool.outboxSettleOps(message.id, 'found'));
          emit('found', attempt);
          continue;
        }
        const result = (await network.relay({ kind: 'tool', name: 'charge', args: { ref: message.ref, amount: message.amount } }, next(), attempt, message.task_id)) as ChargeResult;
        await tool.connection.run(tool.outboxSettleOps(message.id, result.status === 'charged' ? 'charged' : 'declined'));
        emit(result.status === 'charged' ? 'sent' : 'declined', attempt);
      } catch (error) {
        if (runnerProcess.crashed !== null) {
          this.crashes += 1;
          this.state = (await runnerProcess.recover()).state;
          continue;
        }
        if (isTransientError(error) || isContractError(error)) continue; // the message stays; the next attempt asks again
        throw error;
      }
    }
  }

  /** The operator's replay (docs/pillars.md §5): a pending record, through a fresh runner, with the same key. */
  async replay(record: DlqRecord, afterMs: number, callsBefore: number): Promise<void> {
    const { world, runnerProcess } = this;
    const dead = record.originalOperation as DeadIntent;
    world.clock.advance(afterMs);
    world.trace.emit({ type: 'replay', dlqId: record.dlqId, afterMs, action: jsonCopy(dead.state.pending!) });
    this.replays.push({ dlqId: record.dlqId, callsBefore });
    world.counters.callOffset += callsBefore;
    world.replaying = record.dlqId;
    await runnerProcess.restart();
    this.begin(() => runnerProcess.current.events.save(replayState(dead), `replay:${record.dlqId}`));
    await this.toEnd();
    if (this.runnerError === null && this.state?.status === 'succeeded') {
      const { dlq } = runnerProcess.current;
      await dlq!.connection.run(dlq!.markReplayedOps(record.dlqId));
      world.flushHeld();
    }
  }

  /** A pause between two steps, when nothing is uncommitted: what a resumed run needs to go on exactly from here. */
  #checkpoint(paused: RunnerState, storage: Storage): Checkpoint {
    const { world, resume } = this;
    const { trace } = world;
    return {
      traceLength: trace.events.length,
      trace: trace.events,
      step: trace.step,
      steps: this.steps,
      crashes: this.crashes,
      state: jsonCopy(paused),
      clockMs: world.clock.nowMs(),
      draws: { wire: world.wireRng.draws, tool: world.toolRng.draws },
      fired: world.plan.faults.map((fault) => fault.firedAt),
      counters: { ...world.counters },
      committed: new Map(world.committed),
      lastSaved: world.lastSaved,
      unsaved: [...this.unsaved],
      // Right where a resumed run picked up, nothing has changed: its checkpoint's rows are still the content.
      content: resume && trace.events.length === resume.traceLength ? resume.content : { tool: readToolRows(storage.toolDb, usesLimits(this.scenario)), events: readEventRows(storage.eventsDb) },
    };
  }
}

function dlqRow(record: DlqRecord): DlqRow {
  const dead = record.originalOperation as DeadIntent;
  return { dlqId: record.dlqId, status: record.status, task: dead.intent.task, action: dead.intent.action, key: dead.intent.key, attempts: record.attempts, lastError: record.lastError.code };
}

/**
 * The state as the runner is handed it: a task whose permission for a tool was revoked no longer allows it (a new
 * object, so a runner in its box is sent it). Unchanged when nothing was revoked, or the task already says so.
 */
export function withRevocations(state: RunnerState, revoked: readonly string[]): RunnerState {
  if (revoked.length === 0 || !state.task.allow.some((tool) => revoked.includes(tool))) return state;
  return { ...state, task: { ...state.task, allow: state.task.allow.filter((tool) => !revoked.includes(tool)) } };
}
