import type { Clock } from '../core/clock.js';
import type { Rng } from '../core/rng.js';
import { BreakerRegistry } from './breaker/BreakerRegistry.js';
import { CheckpointStore, type Checkpoint } from './checkpoint/CheckpointStore.js';
import { defaultDurabilityConfig } from './config/defaults.js';
import type { DurabilityConfig } from './config/types.js';
import { DeadLetterQueue, type DlqRecord } from './dlq/DeadLetterQueue.js';
import { CircuitOpenError, isDurabilityError } from './errors.js';
import type { EventSink, OperationError } from './events.js';
import { IdempotencyStore } from './idempotency/IdempotencyStore.js';
import { idempotencyKey } from '../core/key.js';
import { RetryEngine, type AttemptResult } from './retry/RetryEngine.js';
import type { Db } from '../core/storage.js';

/**
 * One durable write through all five pillars, in the order of docs/pillars.md §6:
 *   1 idempotency.checkAndRecord — Duplicate: hand back the original result, done.
 *   2 breaker.beforeCall         — Open: fail fast, nothing reaches the dependency (the key is released).
 *   3 retry.execute              — transient failure: back off on the virtual clock, try again.
 *   4 success                    — breaker.afterCall(true), idempotency.record, checkpoint.save(next phase).
 *     (every breaker report carries the ticket of this operation's admission, so it counts for this call only)
 *   5 exhausted                  — dlq.enqueue, breaker.afterCall(false), idempotency.release.
 *     non-retryable              — breaker.afterCall(false), idempotency.release; no DLQ record.
 * Invariant: an operation is either recorded (its result answers every duplicate in the window), or
 * released and — if its retries were exhausted — kept whole in the DLQ. Each step commits on its own;
 * the dependency receives the idempotency key with every attempt, so a replay after a crash or from the
 * DLQ (which reuses the original key) cannot apply the effect twice at a dependency that honours it.
 */

export interface DurableOperation {
  agentId: string;
  operationType: string;
  dependency: string;
  /** The payload: what the key is hashed from and what the dependency receives. */
  content: unknown;
  /** Save this phase of this task when the operation succeeds (step 4). */
  checkpoint?: { taskId: string; phase: string };
}

export interface CallContext {
  key: string;
  /** 1-based attempt number within this execution. */
  attempt: number;
  operation: DurableOperation;
  /** Set when this execution is a replay of that DLQ record. */
  replayOf?: string;
}

export type DependencyCall<T> = (context: CallContext) => AttemptResult<T>;

/** What the DLQ keeps as `original_operation`: the whole operation and the key it was sent with. */
export interface DlqEnvelope {
  operation: DurableOperation;
  idempotencyKey: string;
}

export type LayerOutcome<T> =
  | { kind: 'duplicate'; key: string; originalResult: unknown; inProgress: boolean }
  | { kind: 'circuit_open'; key: string; error: CircuitOpenError }
  | { kind: 'succeeded'; key: string; result: T; attempts: number; delaysMs: number[]; checkpoint?: Checkpoint }
  | { kind: 'dead_lettered'; key: string; finalError: OperationError; attempts: number; delaysMs: number[]; dlqRecord?: DlqRecord }
  | { kind: 'non_retryable'; key: string; finalError: OperationError; attempts: number; delaysMs: number[] };

export interface DurabilityLayerOptions {
  db: Db;
  clock: Clock;
  rng: Rng;
  config?: DurabilityConfig;
  events?: EventSink;
}

export class DurabilityLayer {
  readonly idempotency: IdempotencyStore;
  readonly retry: RetryEngine;
  readonly breakers: BreakerRegistry;
  readonly checkpoints: CheckpointStore;
  readonly dlq: DeadLetterQueue;

  constructor(options: DurabilityLayerOptions) {
    const { db, clock, rng } = options;
    const config = options.config ?? defaultDurabilityConfig();
    const events = options.events ? { events: options.events } : {};
    this.idempotency = new IdempotencyStore({ db, clock, config: config.idempotency, ...events });
    this.retry = new RetryEngine({ clock, rng, policies: config.retry.policies, ...events });
    this.breakers = new BreakerRegistry({ db, clock, configs: config.circuitBreaker.dependencies, ...events });
    this.checkpoints = new CheckpointStore({ db, clock, config: config.checkpoint, ...events });
    this.dlq = new DeadLetterQueue({ db, clock, config: config.dlq, ...events });
  }

  /** The key this operation travels under. Throws KeyPartError for an ambiguous agent_id or operation_type. */
  keyOf(operation: DurableOperation): string {
    return idempotencyKey(operation.agentId, operation.operationType, operation.content);
  }

  execute<T>(operation: DurableOperation, call: DependencyCall<T>): LayerOutcome<T> {
    return this.#run(operation, this.keyOf(operation), call, undefined);
  }

  /**
   * Re-run a pending DLQ record through the layer with its original key (ours). It becomes `replayed`
   * only when the operation succeeds (or turns out to be a duplicate of one that did); otherwise it stays
   * pending and no second record is made. A record that is not pending, or whose TTL has passed, is
   * refused before anything runs (DLQ_INVALID_TRANSITION, DLQ_EXPIRED, DLQ_NOT_FOUND). If its TTL passes
   * while the replay runs (backoffs move the clock), it is not marked: `record` is then undefined — the
   * record is gone — and `outcome` still says what happened to the operation.
   */
  replay<T>(dlqId: string, call: DependencyCall<T>): { outcome: LayerOutcome<T>; record: DlqRecord | undefined } {
    const record = this.dlq.requirePending(dlqId, 'be replayed');
    const { operation, idempotencyKey: key } = record.originalOperation as DlqEnvelope;
    const outcome = this.#run(operation, key, call, dlqId);
    const done = outcome.kind === 'succeeded' || (outcome.kind === 'duplicate' && !outcome.inProgress);
    if (!done) return { outcome, record: this.dlq.get(dlqId) };
    try {
      return { outcome, record: this.dlq.markReplayed(dlqId) };
    } catch (error) {
      if (isDurabilityError(error, 'DLQ_EXPIRED')) return { outcome, record: undefined };
      throw error;
    }
  }

  #run<T>(operation: DurableOperation, key: string, call: DependencyCall<T>, replayOf: string | undefined): LayerOutcome<T> {
    // 1. The tracking number.
    const seen = this.idempotency.checkAndRecord(key, { status: 'in_progress', operationType: operation.operationType });
    if (seen.kind === 'duplicate') return { kind: 'duplicate', key, originalResult: seen.originalResult, inProgress: seen.inProgress };

    // 2. The route: refused calls never reach the dependency, so the key is free again.
    const admission = this.breakers.beforeCall(operation.dependency);
    if (!admission.admitted) {
      this.idempotency.release(key);
      return { kind: 'circuit_open', key, error: admission.error };
    }

    // 3. Redelivery.
    const outcome = this.retry.execute(operation.operationType, ({ attempt }) =>
      call({ key, attempt, operation, ...(replayOf === undefined ? {} : { replayOf }) }),
    );
    const { attempts, delaysMs } = outcome;

    // 4. Delivered.
    if (outcome.success) {
      this.breakers.afterCall(operation.dependency, true, admission.ticket);
      this.idempotency.record(key, outcome.result);
      const checkpoint =
        operation.checkpoint &&
        this.checkpoints.save(operation.checkpoint.taskId, operation.agentId, operation.checkpoint.phase, { key, result: outcome.result });
      return { kind: 'succeeded', key, result: outcome.result as T, attempts, delaysMs, ...(checkpoint ? { checkpoint } : {}) };
    }

    const finalError = outcome.finalError as OperationError;
    // 5. Exhausted: into the returns warehouse (a replay keeps its existing record instead).
    if (outcome.sentToDlq) {
      const envelope: DlqEnvelope = { operation, idempotencyKey: key };
      const dlqRecord =
        replayOf === undefined
          ? this.dlq.enqueue({ agentId: operation.agentId, operationType: operation.operationType, originalOperation: envelope, attempts, lastError: finalError })
          : undefined;
      this.breakers.afterCall(operation.dependency, false, admission.ticket);
      this.idempotency.release(key);
      return { kind: 'dead_lettered', key, finalError, attempts, delaysMs, ...(dlqRecord ? { dlqRecord } : {}) };
    }
    this.breakers.afterCall(operation.dependency, false, admission.ticket);
    this.idempotency.release(key);
    return { kind: 'non_retryable', key, finalError, attempts, delaysMs };
  }
}
