/**
 * What crosses the wire between the runner and the tool: a request goes out, a reply or an error comes
 * back. The runner never touches the tool's database; faults are injected on this path.
 *
 * The harness's side is asynchronous: every await on the wire is a point where the one scheduler may let
 * another actor move (src/sim). A learner's runner in its box sees the same calls answered at once
 * (`SyncToolClient`): the box waits for the harness's answer.
 */
import type { ToolAction } from './state.js';

export interface AttemptContext {
  taskId: string;
  /** The task's call number for this attempt (1 for the first call of the task). */
  call: number;
  /** The attempt number of the pending action (1 for its first try). */
  attempt: number;
}

export interface ToolClient {
  /** Resolves to the tool's reply, or rejects with TransientError / ContractError (or a Crash: the process ends). */
  execute(action: ToolAction, attempt: AttemptContext): Promise<unknown>;
}

/** The same wire as a runner in a box sees it: the reply, or the error thrown, when the call returns. */
export interface SyncToolClient {
  execute(action: ToolAction, attempt: AttemptContext): unknown;
}
