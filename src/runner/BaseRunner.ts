/**
 * Everything a runner needs except the step itself: the policy, validation, authorization, the event
 * store, the key, the tool client and `finalize`. ReferenceRunner and LearnerRunner (and every mutant)
 * extend it and differ only in `step`, so whatever runs one can run them all.
 */
import { ContractError } from '../inventory/errors.js';
import { reserveKey } from '../inventory/keys.js';
import type { Task, TerminalStatus } from '../scenario/types.js';
import { authorize } from './authorize.js';
import type { EventStore } from './EventStore.js';
import type { Policy } from './policy.js';
import type { Action, RunnerState, ToolAction } from './state.js';
import type { ToolClient } from './ToolClient.js';
import { validateAction } from './validateAction.js';
import { jsonCopy } from '../core/canonical.js';

export interface RunnerDeps {
  policy: Policy;
  events: EventStore;
  tools: ToolClient;
}

/** Anything with a `step` that can be built from RunnerDeps: the shape the harness runs. */
export interface Runner {
  step(state: RunnerState): RunnerState;
}

export type RunnerClass = new (deps: RunnerDeps) => Runner;

export abstract class BaseRunner implements Runner {
  protected readonly policy: Policy;
  protected readonly events: EventStore;
  protected readonly tools: ToolClient;

  constructor(deps: RunnerDeps) {
    this.policy = deps.policy;
    this.events = deps.events;
    this.tools = deps.tools;
  }

  /** Advance the run by one step and return the state (SPEC §4). */
  abstract step(state: RunnerState): RunnerState;

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
    if (action.name !== 'reserve' || action.args.key !== undefined) return action;
    return { ...action, args: { ...action.args, key: reserveKey(task.id, action.args as { item: unknown; qty: unknown }) } };
  }

  /** Carry the pending action to the tool as attempt `state.attempts`, call `state.calls`. */
  protected execute(state: RunnerState): unknown {
    if (state.pending === null) throw new ContractError('INVALID_ACTION', 'execute() needs a pending action');
    return this.tools.execute(state.pending, { taskId: state.task.id, call: state.calls, attempt: state.attempts });
  }

  /** Persist the state under a label; returns the state. */
  protected save(state: RunnerState, label: string): RunnerState {
    return this.events.save(state, label);
  }

  /** End the run with a terminal status (and the error's message, if any) and persist it. */
  protected finalize(state: RunnerState, status: TerminalStatus, error?: unknown): RunnerState {
    state.status = status;
    if (error !== undefined) state.result = { error: error instanceof Error ? error.message : String(error) };
    return this.save(state, status);
  }
}
