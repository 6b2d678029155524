/**
 * What crosses the wire between the runner and the tool: a request goes out, a reply or an error comes
 * back. The runner never touches the tool's database; faults are injected on this path.
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
  /** Returns the tool's reply, or throws TransientError / ContractError (or a Crash: the process ends). */
  execute(action: ToolAction, attempt: AttemptContext): unknown;
}
