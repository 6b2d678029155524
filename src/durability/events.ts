import type { JitterStrategy } from './config/types.js';
import type { OperationError } from './errors.js';

export type { OperationError } from './errors.js';
import type { ErrorClass } from './retry/RetryPolicy.js';
import type { Checkpoint } from './checkpoint/Checkpoint.js';
import type { DlqRecord, DlqStatus } from './dlq/DlqRecord.js';

/**
 * What the pillars tell the world, as typed data stamped with virtual time. Each pillar takes an optional
 * EventSink; the pillar scenarios collect these into their trace, and a renderer turns them into text.
 * An event is emitted only after the write it reports has committed, so a trace never shows a state
 * change that a crash rolled back.
 */

export type BreakerState = 'closed' | 'open' | 'half_open';

/** Fired on every breaker state change (docs/pillars.md §3), to subscribers and into the trace. */
export interface StateTransition {
  dependency: string;
  from: BreakerState;
  to: BreakerState;
  /** closed → open only: the rate that tripped it (above the threshold, or 1 when every result failed). */
  failureRate?: number;
  /** How many reported results the decision rests on (window length, or probe reports; 0 when time-driven). */
  requestCount: number;
  /** → open only: how long the route stays closed before a probe is admitted. */
  resetTimeoutSeconds?: number;
  reason: 'failure_rate' | 'reset_timeout_elapsed' | 'probes_succeeded' | 'probe_failed' | 'forced';
  atMs: number;
}

export type DurabilityEvent =
  | {
      type: 'idempotency.new';
      atMs: number;
      key: string;
      /** Set when this New took the key over from a placeholder whose in-progress lease had ended. */
      leaseExpired?: { placeholderAtMs: number; expiredAtMs: number };
    }
  | {
      type: 'idempotency.duplicate';
      atMs: number;
      key: string;
      inProgress: boolean;
      originalTimestampMs: number;
      dedupWindowExpiresAtMs: number;
    }
  | { type: 'idempotency.skipped'; atMs: number; key: string; reason: 'key_too_long' | 'disabled'; keyBytes: number; maxKeyLength: number }
  | { type: 'idempotency.recorded'; atMs: number; key: string; dedupWindowExpiresAtMs: number }
  | { type: 'idempotency.released'; atMs: number; key: string; removed: boolean }
  | { type: 'idempotency.cleanup'; atMs: number; removed: number }
  | {
      type: 'retry.attempt';
      atMs: number;
      operationType: string;
      attempt: number;
      maxAttempts: number;
      ok: boolean;
      error?: OperationError;
      errorClass?: ErrorClass;
    }
  | { type: 'retry.backoff'; atMs: number; operationType: string; afterAttempt: number; delayMs: number; cappedMs: number; strategy: JitterStrategy }
  | { type: 'retry.fallback_policy'; atMs: number; operationType: string }
  | { type: 'retry.gave_up'; atMs: number; operationType: string; reason: 'exhausted' | 'non_retryable'; attempts: number; sentToDlq: boolean }
  | ({ type: 'breaker.transition' } & StateTransition)
  | { type: 'breaker.rejected'; atMs: number; dependency: string; state: 'open' | 'half_open'; retryAfterMs: number }
  | { type: 'breaker.probe_admitted'; atMs: number; dependency: string; ticket: number; inFlight: number; slots: number }
  | { type: 'breaker.probe_rearmed'; atMs: number; dependency: string; ticket: number; startedAtMs: number }
  | {
      type: 'breaker.result';
      atMs: number;
      dependency: string;
      success: boolean;
      state: BreakerState;
      failureRate: number | null;
      windowLength: number;
    }
  | {
      type: 'breaker.report_ignored';
      atMs: number;
      dependency: string;
      state: BreakerState;
      success: boolean;
      /** The ticket the report carried, if any. */
      ticket?: number;
      /** no_probe_in_flight: a ticketless report found no call to count for; ticket_not_in_flight: its call was re-armed, already reported, from an earlier closed period, or never issued. */
      reason: 'no_probe_in_flight' | 'ticket_not_in_flight';
    }
  | { type: 'checkpoint.saved'; atMs: number; checkpoint: Checkpoint }
  | { type: 'checkpoint.restored'; atMs: number; checkpoint: Checkpoint }
  | { type: 'checkpoint.evicted'; atMs: number; checkpointId: string }
  | { type: 'checkpoint.cleanup'; atMs: number; removed: number }
  /** clearTask: every checkpoint of the task (of one agent, when agentId is set) was deleted. */
  | { type: 'checkpoint.cleared'; atMs: number; taskId: string; agentId?: string; removed: number }
  | { type: 'dlq.enqueued'; atMs: number; record: DlqRecord }
  | { type: 'dlq.status'; atMs: number; dlqId: string; from: DlqStatus; to: DlqStatus }
  | { type: 'dlq.cleanup'; atMs: number; removed: number };

export type EventSink = (event: DurabilityEvent) => void;

/** A sink that drops everything: the default when nobody listens. */
export const ignoreEvents: EventSink = () => {};
