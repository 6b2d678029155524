/**
 * The dead-letter queue at the Runner's seam (docs/pillars.md §5). A run that ends `retry_exhausted` or
 * `budget_exhausted` with an action still pending has an intent whose effect may or may not have happened;
 * the runner must not drop it, and a person (or a job) must be able to find it. So the save of that final
 * event also writes the intent — task, action, args, key, and the whole state it ended in — to the DLQ
 * table, in the SAME transaction: the commit of the final event is the commit point of the record. A
 * crash right after it finds both; a crash before it, neither.
 *
 * A replay of a record keeps that record (no second one for the same intent), and writing is idempotent
 * per key: a runner that saves its exhausted state twice leaves one record.
 */
import type { Sql } from '../../core/sql.js';
import type { LoggedEvent } from '../../runner/EventStore.js';
import type { RunnerState, ToolAction } from '../../runner/state.js';
import type { Scenario } from '../../scenario/types.js';
import type { DeadLetterQueue } from '../dlq/DeadLetterQueue.js';
import type { OperationError } from '../errors.js';

/** What a DLQ record of the Runner keeps as its original operation: everything a replay needs, nothing else. */
export interface DeadIntent {
  intent: { task: string; action: string; args: Record<string, unknown>; key: string | null };
  /** The state the run ended in: a replay starts from it, with a fresh budget. */
  state: RunnerState;
  /** The scenario the run belonged to (its policy, inventory and pillars), so a kept record can be replayed later. */
  scenario: Scenario;
}

const EXHAUSTED = new Set(['retry_exhausted', 'budget_exhausted']);

/** What the runner was last told, from the final event's label (`transient:lost_reply`, `budget_exhausted`). */
export function lastErrorOf(label: string): OperationError {
  if (label === 'budget_exhausted') return { code: 'BUDGET_EXHAUSTED', message: 'the call budget ran out with the action still pending', definite: false };
  const message = label.startsWith('transient:') ? label.slice('transient:'.length) : label;
  // Only a refusal before the tool ran is definite; a lost reply, or anything unknown, may have taken effect.
  const definite = message === 'unavailable' || message === 'circuit_open';
  return { code: message, message: `the last attempt failed: ${message}`, definite };
}

export function isDeadIntent(state: RunnerState): state is RunnerState & { pending: ToolAction } {
  return EXHAUSTED.has(state.status) && state.pending !== null;
}

/**
 * The hook the harness gives the EventStore: runs inside the transaction that saves each event, on the log's own
 * connection — at once on SQLite, awaited on PostgreSQL (where the queue's statements then join that transaction).
 * `replaying()` is true while a DLQ record is being replayed (that record is kept, no new one is made).
 */
export function deadLetterHook(dlq: DeadLetterQueue, options: { ttlSeconds: number; scenario: Scenario; replaying: () => boolean }): (event: LoggedEvent) => void | Promise<void> {
  return ({ label, state }) => {
    if (options.replaying() || !isDeadIntent(state)) return;
    return dlq.connection.run(deadLetterOps(dlq, label, state, options));
  };
}

function* deadLetterOps(dlq: DeadLetterQueue, label: string, state: RunnerState & { pending: ToolAction }, options: { ttlSeconds: number; scenario: Scenario }): Sql<void> {
  const key = typeof state.pending.args.key === 'string' ? state.pending.args.key : null;
  const already = (yield* dlq.listPendingOps()).some((r) => {
    const dead = r.originalOperation as DeadIntent;
    return dead.intent.task === state.task.id && dead.intent.key === key && dead.intent.action === state.pending.name && key !== null;
  });
  if (already) return;
  const dead: DeadIntent = {
    intent: { task: state.task.id, action: state.pending.name, args: state.pending.args, key },
    state,
    scenario: options.scenario,
  };
  yield* dlq.enqueueOps({ agentId: state.task.id, operationType: state.pending.name, originalOperation: dead, attempts: Math.max(1, state.attempts), lastError: lastErrorOf(label), ttlSeconds: options.ttlSeconds });
}

/** The state a replay starts from: the dead intent pending again, no attempt spent, a fresh call budget. */
export function replayState(dead: DeadIntent): RunnerState {
  return { ...dead.state, status: 'running', attempts: 0, calls: 0, result: null };
}
