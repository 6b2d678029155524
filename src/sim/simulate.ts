/**
 * simulate(scenario, options) → Run (src/check's `judge` turns it into a RunResult with its checks). The harness: it owns the clock, the rng, the databases and the
 * fault plan; it builds a runner, calls `step` until the run ends, and on a crash drops both connections,
 * reopens them, rebuilds the state from the event log and carries on with a NEW runner instance.
 * Nothing in memory survives a crash except what the outside world keeps (the fault plan, the wire's counters).
 */
import { DEFAULT_SEED, MAX_STEPS, RESTART_MS } from '../core/defaults.js';
import { FaultPlan } from '../faults/FaultPlan.js';
import { FaultyNetwork, type WireCounters } from './FaultyNetwork.js';
import type { FaultSpec } from '../faults/types.js';
import { InventoryTool } from '../inventory/InventoryTool.js';
import type { ToolClass } from './target.js';
import { createToolDatabase } from '../inventory/schema.js';
import { startingImages } from './startingImages.js';
import type { RunnerClass } from '../runner/BaseRunner.js';
import { CircuitBreaker } from '../durability/breaker/CircuitBreaker.js';
import { DeadLetterQueue } from '../durability/dlq/DeadLetterQueue.js';
import type { DlqRecord } from '../durability/dlq/DlqRecord.js';
import { DlqError } from '../durability/errors.js';
import type { DurabilityEvent } from '../durability/events.js';
import { BackoffClient } from '../durability/seams/BackoffClient.js';
import { BreakerClient } from '../durability/seams/BreakerClient.js';
import { deadLetterHook, isDeadIntent, replayState, type DeadIntent } from '../durability/seams/deadLetter.js';
import { resolveDurability } from '../durability/seams/plan.js';
import { EVENT_SCHEMA, EventStore, readEventRows, writeEventRows, type KnownEvent, type LoggedEvent } from '../runner/EventStore.js';
import type { ToolClient } from '../runner/ToolClient.js';
import { ScriptedPolicy } from '../runner/policy.js';
import { ReferenceRunner } from '../runner/ReferenceRunner.js';
import { initialState, type RunnerState } from '../runner/state.js';
import type { Scenario } from '../scenario/types.js';
import { t } from '../core/i18n/index.js';
import { TraceRecorder } from './TraceRecorder.js';
import { CountingRng, type Checkpoint } from './checkpoint.js';
import { KeptConnections, startingContent } from './keptConnections.js';
import { readToolRows, writeToolRows } from '../inventory/rows.js';
import { VirtualClock } from '../core/clock.js';
import { Crash, type CrashPoint } from '../core/crash.js';
import { SeededRng } from '../core/rng.js';
import type { DlqRow, ReplayRecord, Run, RunnerFailure } from './Run.js';
import { FileStorage, openStorage, type StorageKind } from '../core/storage.js';
import { jsonCopy } from '../core/canonical.js';


export interface SimulateOptions {
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
   * Replay a dead letter kept by an earlier run (`--keep-db DIR`): open DIR's databases as they are and, instead
   * of starting the task, carry that record's intent through a fresh runner with its key. The record holds the
   * scenario it came from; the run's checks then cover the whole log, the replay included.
   */
  replayKept?: { dir: string; dlqId: string };
  /**
   * Exploration: resume a run of this scenario, seed and runner paused between two steps (checkpoint.ts)
   * instead of starting it; `extraFaults` are the paused run's added faults followed by the new ones. For
   * in-memory storage, a scenario without pillars, and a runner that keeps nothing between steps.
   */
  resume?: Checkpoint;
  /** Exploration: handed a checkpoint at every step boundary where no transaction is open. */
  onCheckpoint?: (checkpoint: Checkpoint) => void;
  /**
   * Exploration: run on this thread's kept connections, restored to the run's starting rows, instead of
   * opening two databases (keptConnections.ts). In-memory storage only; for a runner and tool that keep
   * nothing of a run once it is over.
   */
  kept?: KeptConnections;
}

export function simulate(scenario: Scenario, options: SimulateOptions = {}): Run {
  const RunnerImpl = options.runner ?? ReferenceRunner;
  const ToolImpl = options.tool ?? InventoryTool;
  const seed = options.seed ?? DEFAULT_SEED;
  const maxSteps = options.maxSteps ?? MAX_STEPS;
  const { resume, onCheckpoint, kept: keptConnections } = options;
  const kept = options.replayKept;
  const kind = options.storage ?? 'file';
  if ((resume || onCheckpoint || keptConnections) && (kind !== 'memory' || kept || options.keepDir !== undefined || scenario.durability)) {
    throw new TypeError('simulate: checkpoints and kept connections are for in-memory runs of scenarios without pillars, with no folder to keep');
  }
  const clock = new VirtualClock(resume?.clockMs ?? 0);
  // One independent stream per consumer: what `new SeededRng(seed).fork(label)` gives (SeededRng.fork names a
  // stream `${seed}/${label}`), without seeding a parent that nothing draws from; the backoff's only if it waits.
  const stream = (label: string) => new SeededRng(`${seed}/${label}`);
  const wireRng = CountingRng.after(`${seed}/wire`, resume?.draws.wire ?? 0);
  const toolRng = CountingRng.after(`${seed}/tool`, resume?.draws.tool ?? 0);
  // In memory, a run forks its starting databases from committed images (startingImages.ts), or starts on
  // kept connections restored to its starting rows (or its checkpoint's); files are built.
  const forked = !kept && kind === 'memory';
  const keepDir = options.keepDir !== undefined ? { keepDir: options.keepDir } : {};
  const storage = kept
    ? new FileStorage({ keepDir: kept.dir, reuse: true })
    : keptConnections
      ? openStorage(kind, { lent: keptConnections.lend(resume?.content ?? startingContent(scenario.inventory)) })
      : openStorage(kind, forked ? { from: startingImages(scenario.inventory), ...keepDir } : keepDir);
  if (resume && !keptConnections) {
    writeToolRows(storage.toolDb, resume.content.tool);
    writeEventRows(storage.eventsDb, resume.content.events);
  }
  const trace = new TraceRecorder(clock);
  const plan = new FaultPlan([...scenario.faults, ...(options.extraFaults ?? [])]);
  const counters: WireCounters = resume ? { ...resume.counters } : { runnerRequests: 0, otherReservations: 0, callOffset: 0 };
  if (resume) {
    for (let i = 0; i < resume.traceLength; i += 1) trace.events.push(resume.trace[i]!);
    trace.step = resume.step;
    resume.fired.forEach((firedAt, i) => (plan.faults[i]!.firedAt = firedAt));
  }
  const policy = new ScriptedPolicy(scenario.script);
  const pillars = resolveDurability(scenario.durability);
  const backoffRng = pillars.backoff ? stream('backoff') : null;
  const toTrace = (event: DurabilityEvent) => trace.emit({ type: 'pillar', event });
  /** What the DLQ says inside a save's transaction is shown after the event it commits with. */
  const held: DurabilityEvent[] = [];
  const flushHeld = () => held.splice(0).forEach(toTrace);
  /** Every event the harness saw committed, by seq: the log read back at the end reuses their states. */
  const committed = new Map<number, KnownEvent>(resume?.committed);
  /** The DLQ record being replayed (the harness is the operator replaying it: this outlives a crash). */
  let replaying: string | null = null;

  try {
    if (!kept && !forked) {
      createToolDatabase(storage.toolDb, scenario.inventory);
      storage.eventsDb.exec(EVENT_SCHEMA);
    }

    let crashed: Crash | null = null;
    const crash = (point: CrashPoint, message: string): never => {
      trace.emit({ type: 'crash', point, message });
      storage.crash(); // the connections go first: nothing the runner does after this can be committed
      crashed = new Crash(point, message);
      throw crashed;
    };

    /** A new process: its runner, event store, wire and pillars, on the connections of the moment. */
    const build = () => {
      const db = storage.eventsDb;
      const dlq = pillars.dlq ? new DeadLetterQueue({ db, clock, config: { defaultTtlSeconds: pillars.dlq.ttlSeconds }, events: (e) => held.push(e) }) : null;
      const onSaved = (event: LoggedEvent, json: string) => {
        committed.set(event.seq, { label: event.label, json, state: event.state });
        trace.emit({ type: 'saved', seq: event.seq, label: event.label, state: event.state });
        flushHeld();
        const hit = plan.afterEvent(event.seq, event.label, event.state.pending?.name ?? null, trace.step);
        if (hit !== null) {
          trace.emit({ type: 'fault', fault: hit.spec, index: hit.index });
          crash('crash_after_event', t('trace.crash.afterEvent', { seq: event.seq, label: event.label }));
        }
      };
      const events = new EventStore(db, onSaved, dlq ? deadLetterHook(dlq, { ttlSeconds: pillars.dlq!.ttlSeconds, scenario, replaying: () => replaying !== null }) : undefined);
      const network = new FaultyNetwork({
        tool: new ToolImpl({ db: storage.toolDb, rng: toolRng, clock }),
        db: storage.toolDb,
        plan,
        trace,
        clock,
        rng: wireRng,
        counters,
        crash,
      });
      // The pillars wrap the wire from the inside out in SEAM_ORDER's reverse: an attempt first waits (backoff),
      // then asks the breaker, then goes on the wire.
      const seams: Record<(typeof SEAM_ORDER)[number], (inner: ToolClient) => ToolClient> = {
        backoff: (inner) => (pillars.backoff ? new BackoffClient(inner, { plan: pillars.backoff, clock, rng: backoffRng!, events: toTrace }) : inner),
        breaker: (inner) => (pillars.breaker ? new BreakerClient(inner, new CircuitBreaker({ db, clock, config: pillars.breaker, events: toTrace })) : inner),
      };
      const tools = [...SEAM_ORDER].reverse().reduce<ToolClient>((inner, seam) => seams[seam](inner), network);
      return { events, dlq, network, runner: new RunnerImpl({ policy, events, tools }) };
    };

    let { events, dlq, network, runner } = build();
    let state: RunnerState | null = resume ? jsonCopy(resume.state) : null;
    let steps = resume?.steps ?? 0;
    let crashes = resume?.crashes ?? 0;
    let runnerError: RunnerFailure | null = null;
    const replays: ReplayRecord[] = [];
    let start: (() => RunnerState) | null = kept || resume ? null : () => events.save(initialState(scenario.task), 'started');

    /** A pause between two steps, when nothing is uncommitted: what a resumed run needs to go on exactly from here. */
    const checkpoint = (paused: RunnerState): Checkpoint => ({
      traceLength: trace.events.length,
      trace: trace.events,
      step: trace.step,
      steps,
      crashes,
      state: jsonCopy(paused),
      clockMs: clock.nowMs(),
      draws: { wire: wireRng.draws, tool: toolRng.draws },
      fired: plan.faults.map((fault) => fault.firedAt),
      counters: { ...counters },
      committed: new Map(committed),
      // Right where a resumed run picked up, nothing has changed: its checkpoint's rows are still the content.
      content: resume && trace.events.length === resume.traceLength ? resume.content : { tool: readToolRows(storage.toolDb), events: readEventRows(storage.eventsDb) },
    });

    /** Step until the run ends (or the runner fails), recovering from every crash with a new runner. */
    const drive = (): void => {
      for (;;) {
        try {
          if (start !== null) {
            const begin = start;
            start = null;
            state = begin();
          }
          state ??= events.last() ?? events.save(initialState(scenario.task), 'started');
          if (onCheckpoint && !storage.toolDb.inTransaction && !storage.eventsDb.inTransaction) onCheckpoint(checkpoint(state));
          if (state.status !== 'running' || steps >= maxSteps) return;
          steps += 1;
          trace.step = steps;
          const returned = runner.step(state);
          if (crashed !== null) {
            // The runner swallowed the crash and returned; the process is dead all the same. Said in the trace,
            // so a check can fail the run however its figures came out.
            trace.emit({ type: 'crash_caught', how: t('trace.crashCaught.returned') });
            throw crashed;
          }
          if (!looksLikeState(returned)) {
            runnerError = { step: steps, name: 'TypeError', message: t('trace.stepReturned', { value: describe(returned) }) };
            trace.emit({ type: 'runner_error', errorName: runnerError.name, message: runnerError.message });
            return;
          }
          state = returned;
        } catch (error) {
          if (crashed !== null) {
            // What came out of step is not the crash itself: the runner caught it and went on (a save on the
            // closed database, or an error of its own). Unless it was the note above, rethrowing it.
            if (error !== crashed) trace.emit({ type: 'crash_caught', how: t('trace.crashCaught.threw', { what: describeThrown(error) }) });
            crashed = null;
            crashes += 1;
            clock.advance(RESTART_MS);
            storage.reopen();
            ({ events, dlq, network, runner } = build());
            const last = events.lastEvent(committed);
            state = last?.state ?? null;
            trace.emit({ type: 'recovered', seq: last?.seq ?? null, state: state === null ? null : jsonCopy(state) });
            continue;
          }
          runnerError = failure(steps, error);
          trace.emit({ type: 'runner_error', errorName: runnerError.name, message: runnerError.message, ...(runnerError.stack ? { stack: runnerError.stack } : {}) });
          return;
        }
      }
    };

    /** The operator's replay (PILLARS §5): a pending record, through a fresh runner, with the same key. */
    const replay = (record: DlqRecord, afterMs: number, callsBefore: number): void => {
      const dead = record.originalOperation as DeadIntent;
      clock.advance(afterMs);
      trace.emit({ type: 'replay', dlqId: record.dlqId, afterMs, action: jsonCopy(dead.state.pending!) });
      replays.push({ dlqId: record.dlqId, callsBefore });
      counters.callOffset += callsBefore;
      replaying = record.dlqId;
      ({ events, dlq, network, runner } = build());
      start = () => events.save(replayState(dead), `replay:${record.dlqId}`);
      drive();
      if (runnerError === null && (state as RunnerState | null)?.status === 'succeeded') {
        dlq!.markReplayed(record.dlqId);
        flushHeld();
      }
    };

    if (kept) {
      const record = dlq?.get(kept.dlqId);
      if (record === undefined || dlq === null) throw new DlqError('DLQ_NOT_FOUND', `no dead letter ${kept.dlqId} in ${kept.dir}`);
      if (record.status !== 'pending') throw new DlqError('DLQ_INVALID_TRANSITION', `${kept.dlqId} is ${record.status}; only a pending record may be replayed`);
      const previous = events.last();
      replay(record, 0, previous?.calls ?? 0);
    } else {
      drive();
      const replayAfterMs = pillars.dlq?.replayAfterMs;
      const ended = state as RunnerState | null;
      const record = replayAfterMs !== undefined && runnerError === null && ended !== null && isDeadIntent(ended) ? dlq?.listPending().at(-1) : undefined;
      if (record !== undefined && replayAfterMs !== undefined) replay(record, replayAfterMs, ended!.calls);
    }
    trace.emit({ type: 'finished', status: (state as RunnerState | null)?.status ?? 'none', steps });

    return {
      scenario,
      seed,
      runner: RunnerImpl.name || 'anonymous runner',
      storage: storage.kind,
      trace: trace.events,
      log: events.all(committed),
      state,
      db: network.snapshot(),
      faults: plan.faults,
      runnerRequests: counters.runnerRequests,
      steps,
      crashes,
      runnerError,
      maxSteps,
      replays,
      dlq: dlq === null ? [] : dlq.list().map(dlqRow),
    };
  } finally {
    storage.dispose();
  }
}

/** The pillars at the wire, outermost first: the runner waits, then asks the breaker, then sends. */
export const SEAM_ORDER = ['backoff', 'breaker'] as const;

function dlqRow(record: DlqRecord): DlqRow {
  const dead = record.originalOperation as DeadIntent;
  return { dlqId: record.dlqId, status: record.status, task: dead.intent.task, action: dead.intent.action, key: dead.intent.key, attempts: record.attempts, lastError: record.lastError.code };
}

function looksLikeState(value: unknown): value is RunnerState {
  return typeof value === 'object' && value !== null && typeof (value as RunnerState).status === 'string';
}

function describe(value: unknown): string {
  if (value === undefined) return t('trace.stepReturnedUndefined');
  return JSON.stringify(value)?.slice(0, 80) ?? String(value);
}

function describeThrown(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function failure(step: number, error: unknown): RunnerFailure {
  if (error instanceof Error) return { step, name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  return { step, name: 'Error', message: t('trace.threwNonError', { value: String(error) }) };
}
