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
import { readSnapshot } from '../inventory/snapshot.js';
import type { RunnerClass } from '../runner/BaseRunner.js';
import { EVENT_SCHEMA, EventStore } from '../runner/EventStore.js';
import { ScriptedPolicy } from '../runner/policy.js';
import { ReferenceRunner } from '../runner/ReferenceRunner.js';
import { initialState, type RunnerState } from '../runner/state.js';
import type { Scenario } from '../scenario/types.js';
import { TraceRecorder } from './TraceRecorder.js';
import { VirtualClock } from '../core/clock.js';
import { Crash, type CrashPoint } from '../core/crash.js';
import { SeededRng } from '../core/rng.js';
import type { Run, RunnerFailure } from './Run.js';
import { openStorage, type StorageKind } from '../core/storage.js';
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
  /** Keep the database files in this folder instead of a temporary one that is removed. */
  keepDir?: string;
}

export function simulate(scenario: Scenario, options: SimulateOptions = {}): Run {
  const RunnerImpl = options.runner ?? ReferenceRunner;
  const ToolImpl = options.tool ?? InventoryTool;
  const seed = options.seed ?? DEFAULT_SEED;
  const maxSteps = options.maxSteps ?? MAX_STEPS;
  const clock = new VirtualClock();
  const rng = new SeededRng(seed);
  const wireRng = rng.fork('wire');
  const toolRng = rng.fork('tool');
  const storage = openStorage(options.storage ?? 'file', options.keepDir ? { dir: options.keepDir, keep: true } : {});
  const trace = new TraceRecorder(clock);
  const plan = new FaultPlan([...scenario.faults, ...(options.extraFaults ?? [])]);
  const counters: WireCounters = { runnerRequests: 0, otherReservations: 0 };
  const policy = new ScriptedPolicy(scenario.script);

  try {
    createToolDatabase(storage.toolDb, scenario.inventory);
    storage.eventsDb.exec(EVENT_SCHEMA);

    let crashed: Crash | null = null;
    const crash = (point: CrashPoint, message: string): never => {
      trace.emit({ type: 'crash', point, message });
      storage.crash(); // the connections go first: nothing the runner does after this can be committed
      crashed = new Crash(point, message);
      throw crashed;
    };

    const build = () => {
      const events = new EventStore(storage.eventsDb, (event) => {
        trace.emit({ type: 'saved', seq: event.seq, label: event.label, state: event.state });
        const hit = plan.afterEvent(event.seq, event.label, event.state.pending?.name ?? null, trace.step);
        if (hit !== null) {
          trace.emit({ type: 'fault', fault: hit.spec, index: hit.index, note: 'the process dies right after this event is saved' });
          crash('crash_after_event', `crash after event #${event.seq} (${event.label})`);
        }
      });
      const tools = new FaultyNetwork({
        tool: new ToolImpl({ db: storage.toolDb, rng: toolRng, clock }),
        db: storage.toolDb,
        plan,
        trace,
        clock,
        rng: wireRng,
        counters,
        crash,
      });
      return { events, runner: new RunnerImpl({ policy, events, tools }) };
    };

    let { events, runner } = build();
    let state: RunnerState | null = null;
    let steps = 0;
    let crashes = 0;
    let runnerError: RunnerFailure | null = null;

    for (;;) {
      try {
        state ??= events.last() ?? events.save(initialState(scenario.task), 'started');
        if (state.status !== 'running' || steps >= maxSteps) break;
        steps += 1;
        trace.step = steps;
        const returned = runner.step(state);
        if (crashed !== null) {
          // The runner swallowed the crash and returned; the process is dead all the same. Said in the trace,
          // so a check can fail the run however its figures came out.
          trace.emit({ type: 'crash_caught', how: 'step returned normally after the crash' });
          throw crashed;
        }
        if (!looksLikeState(returned)) {
          runnerError = { step: steps, name: 'TypeError', message: `step() must return the state, it returned ${describe(returned)}` };
          trace.emit({ type: 'runner_error', errorName: runnerError.name, message: runnerError.message });
          break;
        }
        state = returned;
      } catch (error) {
        if (crashed !== null) {
          // What came out of step is not the crash itself: the runner caught it and went on (a save on the
          // closed database, or an error of its own). Unless it was the note above, rethrowing it.
          if (error !== crashed) trace.emit({ type: 'crash_caught', how: `step caught the crash and then threw ${describeThrown(error)}` });
          crashed = null;
          crashes += 1;
          clock.advance(RESTART_MS);
          storage.reopen();
          ({ events, runner } = build());
          const last = events.lastEvent();
          state = last?.state ?? null;
          trace.emit({ type: 'recovered', seq: last?.seq ?? null, state: state === null ? null : jsonCopy(state) });
          continue;
        }
        runnerError = failure(steps, error);
        trace.emit({ type: 'runner_error', errorName: runnerError.name, message: runnerError.message, ...(runnerError.stack ? { stack: runnerError.stack } : {}) });
        break;
      }
    }
    trace.emit({ type: 'finished', status: state?.status ?? 'none', steps });

    return {
      scenario,
      seed,
      runner: RunnerImpl.name || 'anonymous runner',
      storage: storage.kind,
      trace: trace.events,
      log: events.all(),
      state,
      db: readSnapshot(storage.toolDb),
      faults: plan.faults,
      runnerRequests: counters.runnerRequests,
      steps,
      crashes,
      runnerError,
      maxSteps,
    };
  } finally {
    storage.dispose();
  }
}

function looksLikeState(value: unknown): value is RunnerState {
  return typeof value === 'object' && value !== null && typeof (value as RunnerState).status === 'string';
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined (did you forget `return state`?)';
  return JSON.stringify(value)?.slice(0, 80) ?? String(value);
}

function describeThrown(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function failure(step: number, error: unknown): RunnerFailure {
  if (error instanceof Error) return { step, name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  return { step, name: 'Error', message: `threw a non-Error value: ${String(error)}` };
}
