/**
 * A scenario as the simulator sees it, after YAML parsing and validation. Data shapes that also live in
 * YAML, JSON and the runner's event log keep the YAML's snake_case field names (`max_calls`), so a
 * learner finds the same word in the file, the trace and the state.
 */
import type { FaultSpec } from '../faults/types.js';
import type { ScenarioWords } from './words.js';

export const TOOL_NAMES = ['search_docs', 'read_doc', 'get_stock', 'reserve', 'release', 'close_task', 'charge', 'charge_status'] as const;
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

/**
 * A step's condition (docs/spec.md §14.6): observation references and the value each must equal, e.g.
 * `{ "@charge.status": declined }`. The step is taken only when every one holds, else skipped.
 */
export type StepCondition = Record<string, unknown>;

/** One entry of the scripted policy: call a tool with these arguments, or finish with a status. */
export type ScriptStep =
  | { kind: 'tool'; name: string; args: Record<string, unknown>; when?: StepCondition }
  | { kind: 'finish'; status: string; when?: StepCondition };

/**
 * The durability pillars at the Runner's seams, as the scenario's YAML says them (snake_case, durability.yaml's
 * names). Each block present switches its pillar on; a field left out takes the pillar's default, resolved by
 * the simulator from src/durability's defaults. Absent: the chapter's Runner, exactly.
 */
export interface DurabilitySpec {
  retry?: { initial_delay_ms?: number; max_delay_ms?: number; multiplier?: number; jitter?: string };
  breaker?: {
    failure_rate_threshold?: number;
    min_request_count?: number;
    window_size?: number;
    reset_timeout_seconds?: number;
    probe_success_required?: number;
    probe_timeout_seconds?: number;
  };
  dlq?: { ttl_seconds?: number; replay_after_ms?: number };
}

/**
 * How long the tool keeps its receipts, and the four rules of docs/spec.md §13 that make a finite retention
 * safe, each a switch the tool enforces. Absent: the chapter's tool, which never deletes a receipt.
 */
export interface RetentionSpec {
  /** How old a receipt may grow (virtual ms) before the tool's purge deletes it. */
  receipts_ms: number;
  /** The longest a request may stay valid: a write's `not_after_ms` at most this far ahead (rules 1 and 2). */
  requests_ms?: number;
  rules?: RetentionRule[];
}

export const RETENTION_RULES = ['deadline', 'receipts_outlive_requests', 'refuse_purged_keys', 'finished_tasks'] as const;
export type RetentionRule = (typeof RETENTION_RULES)[number];

/** The remote payment service with no idempotency key (docs/spec.md §14), and how the runner's client retries it. */
export interface RemoteSpec {
  /** The account's balance: a charge above what is left is declined (a definite answer, no effect). */
  balance: number;
  /** How the runner's client carries a retry of a charge: resend it as it is (`blind`), or ask first (`query`). */
  retry?: 'blind' | 'query';
  /** The outbox's relay: how many times it tries one message before it leaves it for a human (default 3). */
  relay_attempts?: number;
}

/** The pillars' figures a scenario may expect. */
export interface DurabilityExpectations {
  /** How many times the runner waited before a retry (seed-independent). */
  backoff_waits?: number;
  /** Every backoff wait before a retry, in virtual ms, in order (jitter makes them the seed's). */
  backoff_ms?: number[];
  /** The breaker's transitions, e.g. `closed→open`. */
  breaker?: string[];
  /** Attempts the open breaker refused before the wire. */
  refused_by_breaker?: number;
  /** The status of every dead-letter record at the end, in the order they were written. */
  dlq?: string[];
  /** Dead-letter records replayed through a fresh runner. */
  replays?: number;
}

/**
 * Many workers (docs/spec.md §10–11): the scenario's task goes into a queue, and `count` workers — each a process
 * of its own — claim it, hold it under a lease, and run it with the scenario's runner; a sweeper returns expired
 * leases to the queue. As the YAML says it; absent fields take src/core/defaults.ts's figures.
 */
export interface WorkersSpec {
  /** How many workers: w1, w2, … */
  count: number;
  /** How long a grant or a renewal lasts (virtual ms). */
  lease_ms: number;
  /** How often the sweeper runs (virtual ms). */
  sweep_every_ms: number;
  /** How long an idle worker waits before it claims again (virtual ms). */
  poll_ms: number;
  /** Choices the scheduler makes otherwise than by default: at its n-th choice, this actor moves (the rest by default). */
  schedule: ScheduleChoice[];
}

/** One choice of a schedule: at the scheduler's `choice`-th choice (counting only where two or more actors could move), `run` moves. */
export interface ScheduleChoice {
  choice: number;
  run: string;
}

/** The queue's figures a many-worker scenario may expect. */
export interface WorkerExpectations {
  /** The task's state in the queue at the end. */
  task?: 'queued' | 'running' | 'done' | 'failed';
  /** Grants made: every claim that got the task, re-claims included. */
  grants?: number;
  /** Writes the store refused as stale (STALE_FENCE): log lines, reserves, renewals, completions. */
  stale_refused?: number;
}

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
  /** Crashes the run recovered from. */
  crashes?: number;
  durability?: DurabilityExpectations;
  workers?: WorkerExpectations;
  /** Charges the remote service really made (its own table), every reference's. */
  charges?: number;
  /** Receipts the tool's purge deleted. */
  purged?: number;
  /** Outbox messages still unsent at the end. */
  unsent?: number;
}

/** The tag of a replay file written by `faultlab explore` or the grader: its explanation says who broke what. */
export const EXPLORED_TAG = 'explored';

export interface Scenario {
  id: string;
  /** English, and the data: `--json` and `list --json` say this title in every language. */
  title: string;
  explain: string;
  /** The title and explanation in Chinese, when the file gives them (`zh:`); show them through wordsOf (./words.ts). */
  zh?: ScenarioWords;
  /** Where it came from, for messages (absent for scenarios built in code). */
  file?: string;
  /** Position in listings (docs/spec.md §6 numbering for the fixed 17). */
  order?: number;
  tags: string[];
  inventory: Inventory;
  task: Task;
  script: ScriptStep[];
  faults: FaultSpec[];
  /** The pillars at the Runner's seams; absent for the chapter's scenarios. */
  durability?: DurabilitySpec;
  /** Many workers on a queue; absent: the chapter's one runner, exactly. */
  workers?: WorkersSpec;
  /** How long the tool keeps its receipts, and the rules it enforces (docs/spec.md §13); absent: for ever. */
  retention?: RetentionSpec;
  /** The keyless remote service and its client (docs/spec.md §14); absent: the inventory alone. */
  remote?: RemoteSpec;
  expect: Expectations;
}

/** Does the scenario reach past the chapter's tool: receipts that expire, a task delivered again, a remote service? */
export function usesLimits(scenario: Pick<Scenario, 'retention' | 'remote' | 'faults'>): boolean {
  return scenario.retention !== undefined || scenario.remote !== undefined || scenario.faults.some((f) => f.kind === 'late_delivery' || f.kind === 'redeliver_task');
}
