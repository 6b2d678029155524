/**
 * Everything a runner needs except the step itself: the policy, validation, authorization, the event
 * store, the key, the tool client and `finalize`. ReferenceRunner and LearnerRunner (and every mutant)
 * extend it and differ only in `step`, so whatever runs one can run them all.
 *
 * Two ways to be run, one class. The harness is asynchronous (src/sim: every await on the wire or the
 * log is a point where another actor may move), so a runner that runs inside it — the reference, the
 * mutants — extends `BaseRunner<'async'>` and awaits its calls. A learner's runner extends `BaseRunner`
 * and runs in its box (src/box): there every call returns when the harness has answered it, so its step
 * is plain synchronous code, as the exercise has always had it. The helpers are the same code either way.
 */
import { refuse } from '../inventory/refusals.js';
import { releaseKey, reserveKey } from '../inventory/keys.js';
import type { Task, TerminalStatus } from '../scenario/types.js';
import { authorize } from './authorize.js';
import type { EventLog, SyncEventLog } from './EventStore.js';
import type { Policy } from './policy.js';
import type { Action, RunnerState, ToolAction } from './state.js';
import type { SyncToolClient, ToolClient } from './ToolClient.js';
import { validateAction } from './validateAction.js';
import { jsonCopy } from '../core/canonical.js';

/** How a runner's calls answer: at once (in a box), or as promises (in the harness). */
export type Mode = 'sync' | 'async';

/** A value as a runner of that mode receives it. */
export type Io<T, M extends Mode> = M extends 'async' ? Promise<T> : T;

export interface RunnerDeps<M extends Mode = 'async'> {
  policy: Policy;
  events: M extends 'async' ? EventLog : SyncEventLog;
  tools: M extends 'async' ? ToolClient : SyncToolClient;
}

/** Anything with a `step` that can be built from RunnerDeps: the shape the harness runs. */
export interface Runner {
  step(state: RunnerState): RunnerState | Promise<RunnerState>;
  /** A runner built elsewhere (in a box) is ready when its constructor there has run: the harness awaits this before the first step. */
  ready?(): Promise<void>;
}

/** A runner the harness can build and run in its own thread: its deps answer with promises. */
export type RunnerClass = new (deps: RunnerDeps<'async'>) => Runner;

/** A runner as a learner writes it: built in its box, with deps that answer at once. */
export type SyncRunnerClass = new (deps: RunnerDeps<'sync'>) => { step(state: RunnerState): RunnerState };

export abstract class BaseRunner<M extends Mode = 'sync'> implements Runner {
  protected readonly policy: Policy;
  protected readonly events: RunnerDeps<M>['events'];
  protected readonly tools: RunnerDeps<M>['tools'];

  constructor(deps: RunnerDeps<M>) {
    this.policy = deps.policy;
    this.events = deps.events;
    this.tools = deps.tools;
  }

  /** Advance the run by one step and return the state (docs/spec.md §4). */
  abstract step(state: RunnerState): Io<RunnerState, M>;

  /**
   * Ask the policy for the next action (it gets a deep copy of the state), validate it and authorize it.
   * Throws on a bad action; the caller turns that into `policy_error`.
   */
  protected decide(state: RunnerState): Action {
    const action = validateAction(this.policy.nextAction(jsonCopy(state)));
    this.authorize(state.task, action);
    return action;
  }

  /** Throws ContractError NOT_AUTHORIZED unless the task may take this action. */
  protected authorize(task: Task, action: Action): void {
    authorize(task, action);
  }

  /**
   * The action as it will be carried out: a reserve gets its idempotency key here, once, derived from
   * the intent (task, item, qty) unless the policy gave one. Every retry must reuse this action as is.
   */
  protected prepare(task: Task, action: ToolAction): ToolAction {
    // A release (a compensation, docs/spec.md §14.5) is a write too: its key names the reservation it undoes.
    if (action.name === 'release' && action.args.key === undefined) {
      return { ...action, args: { ...action.args, key: releaseKey(task.id, action.args as { item: unknown; qty: unknown; of: unknown }) } };
    }
    if (action.name !== 'reserve' || action.args.key !== undefined) return action;
    return { ...action, args: { ...action.args, key: reserveKey(task.id, action.args as { item: unknown; qty: unknown }) } };
  }

  /** Carry the pending action to the tool as attempt `state.attempts`, call `state.calls`. */
  protected execute(state: RunnerState): Io<unknown, M> {
    if (state.pending === null) throw refuse('INVALID_ACTION', 'needsPending');
    return this.tools.execute(state.pending, { taskId: state.task.id, call: state.calls, attempt: state.attempts }) as Io<unknown, M>;
  }

  /** Persist the state under a label; returns the state. */
  protected save(state: RunnerState, label: string): Io<RunnerState, M> {
    return this.events.save(state, label) as Io<RunnerState, M>;
  }

  /** End the run with a terminal status (and the error's message, if any) and persist it. */
  protected finalize(state: RunnerState, status: TerminalStatus, error?: unknown): Io<RunnerState, M> {
    state.status = status;
    if (error !== undefined) state.result = { error: error instanceof Error ? error.message : String(error) };
    return this.save(state, status);
  }
}
