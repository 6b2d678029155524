/**
 * A scenario as the simulator sees it, after YAML parsing and validation. Data shapes that also live in
 * YAML, JSON and the runner's event log keep the YAML's snake_case field names (`max_calls`), so a
 * learner finds the same word in the file, the trace and the state.
 */
import type { FaultSpec } from '../faults/types.js';

export const TOOL_NAMES = ['search_docs', 'read_doc', 'get_stock', 'reserve'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export const TERMINAL_STATUSES = [
  'succeeded',
  'gave_up',
  'retry_exhausted',
  'tool_error',
  'policy_error',
  'budget_exhausted',
] as const;
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];
export type RunStatus = 'running' | TerminalStatus;

export interface Task {
  id: string;
  /** Items this task may touch: authorization refuses any other `item` argument. */
  items: string[];
  /** Tools this task may call. */
  allow: string[];
  /** Every attempt is one call; the task may make at most this many. */
  max_calls: number;
  /** Tries after the first that one pending action may take. */
  max_retries: number;
}

export interface ItemStock {
  available: number;
  version: number;
}

export interface Doc {
  doc_id: string;
  title: string;
  body: string;
}

export interface Inventory {
  items: Record<string, ItemStock>;
  docs: Doc[];
}

/** One entry of the scripted policy: call a tool with these arguments, or finish with a status. */
export type ScriptStep =
  | { kind: 'tool'; name: string; args: Record<string, unknown> }
  | { kind: 'finish'; status: string };

export interface Expectations {
  status?: TerminalStatus;
  calls?: number;
  /** Number of ledger rows at the end (all tasks). */
  ledger?: number;
  /** Final `available` per item. */
  stock?: Record<string, number>;
  /** Name of the action left pending at the end, or null for none. */
  pending?: string | null;
  /** Names of the tools whose results the runner observed, in any order. */
  observations?: string[];
  /** Crashes the run recovered from (each a new runner on the state rebuilt from the log). */
  crashes?: number;
}

export interface Scenario {
  id: string;
  title: string;
  explain: string;
  /** Where it came from, for messages (absent for scenarios built in code). */
  file?: string;
  /** Position in listings (SPEC §6 numbering for the fixed 17). */
  order?: number;
  tags: string[];
  inventory: Inventory;
  task: Task;
  script: ScriptStep[];
  faults: FaultSpec[];
  expect: Expectations;
}
