/**
 * The runner's state (docs/spec.md §4). It is plain JSON: the event store saves it whole after every step
 * that matters, and a new runner after a crash starts from the last saved copy.
 */
import type { RunStatus, Task, TerminalStatus } from '../scenario/types.js';
import { TERMINAL_STATUSES } from '../scenario/types.js';
import { jsonCopy } from '../core/canonical.js';

export interface ToolAction {
  kind: 'tool';
  name: string;
  args: Record<string, unknown>;
}

export interface FinishAction {
  kind: 'finish';
  status: 'succeeded' | 'gave_up';
}

export type Action = ToolAction | FinishAction;

export interface RunnerState {
  task: Task;
  status: RunStatus;
  /** The action being carried out: prepared once, kept with its args and key for every attempt. */
  pending: ToolAction | null;
  /** Attempts of the pending action so far (the first try included). */
  attempts: number;
  /** Calls made by the whole task: every attempt of every action. */
  calls: number;
  /** Actions prepared so far; the scripted policy reads its next step from this. */
  decisions: number;
  /** The last result of each tool, by tool name. */
  observations: Record<string, unknown>;
  /** Set when the run ends in an error: the message. */
  result: { error: string } | null;
}

export function initialState(task: Task): RunnerState {
  return {
    task: jsonCopy(task),
    status: 'running',
    pending: null,
    attempts: 0,
    calls: 0,
    decisions: 0,
    observations: {},
    result: null,
  };
}

export function isTerminal(status: unknown): status is TerminalStatus {
  return (TERMINAL_STATUSES as readonly unknown[]).includes(status);
}
