import type { Clock } from '../../core/clock.js';
import type { Rng } from '../../core/rng.js';
import { DEFAULT_DURABILITY_CONFIG, FALLBACK_OPERATION_TYPE } from '../config/defaults.js';
import { ignoreEvents, type EventSink, type OperationError } from '../events.js';
import { backoffDelay } from './backoff.js';
import { classifyError, validatePolicy, type RetryPolicy } from './RetryPolicy.js';

/**
 * Redelivery: try an operation, and after a transient failure wait (on the virtual clock) and try again,
 * up to the policy's max_attempts — all tries, the first included. The engine holds one policy per
 * operation type and never a policy that failed validation: `upsertPolicy` validates first, so a
 * rejected hot reload leaves the old policy in force. An operation type without a policy uses the `*`
 * fallback (1 attempt; ours — the original reported any failure of an unknown type as exhausted).
 * No state outlives a call, so there is nothing to commit: what must survive a crash is the DLQ record.
 */

/** What one attempt returned: a tagged union, not an exception. */
export type AttemptResult<T> = { ok: true; value: T } | { ok: false; error: OperationError };

export function succeed<T>(value: T): AttemptResult<T> {
  return { ok: true, value };
}

export function fail(code: string, message: string, definite = true): AttemptResult<never> {
  return { ok: false, error: { code, message, definite } };
}

export interface RetryOutcome<T> {
  success: boolean;
  result?: T;
  /** All tries made, the first included. */
  attempts: number;
  finalError?: OperationError;
  /** true only when every attempt was spent on retryable failures. */
  sentToDlq: boolean;
  /** The waits between attempts, in virtual ms (attempts − 1 of them at most; none after the last). */
  delaysMs: number[];
  /** The policy actually used: the operation type's own, or `*`. */
  policyUsed: string;
}

export interface RetryEngineOptions {
  clock: Clock;
  rng: Rng;
  policies?: Record<string, RetryPolicy>;
  events?: EventSink;
}

export class RetryEngine {
  readonly #clock: Clock;
  readonly #rng: Rng;
  readonly #emit: EventSink;
  readonly #policies = new Map<string, RetryPolicy>();

  constructor(options: RetryEngineOptions) {
    this.#clock = options.clock;
    this.#rng = options.rng;
    this.#emit = options.events ?? ignoreEvents;
    const policies = options.policies ?? DEFAULT_DURABILITY_CONFIG.retry.policies;
    for (const policy of Object.values(policies)) this.upsertPolicy(policy);
    if (!this.#policies.has(FALLBACK_OPERATION_TYPE)) {
      this.upsertPolicy(DEFAULT_DURABILITY_CONFIG.retry.policies[FALLBACK_OPERATION_TYPE] as RetryPolicy);
    }
  }

  /** Validate, then replace (or add) the policy of `policy.operationType`. Throws PolicyValidationError. */
  upsertPolicy(policy: RetryPolicy): void {
    const valid = validatePolicy(policy);
    this.#policies.set(valid.operationType, valid);
  }

  /** The policy in force for an operation type, falling back to `*`. */
  policyFor(operationType: string): RetryPolicy {
    return (this.#policies.get(operationType) ?? this.#policies.get(FALLBACK_OPERATION_TYPE)) as RetryPolicy;
  }

  hasPolicy(operationType: string): boolean {
    return this.#policies.has(operationType);
  }

  /** Run `attempt` until it succeeds, fails for good, or the attempts are spent. Sleeps advance the clock. */
  execute<T>(operationType: string, attempt: (context: { attempt: number }) => AttemptResult<T>): RetryOutcome<T> {
    const policy = this.policyFor(operationType);
    const policyUsed = policy.operationType;
    if (policyUsed !== operationType) this.#emit({ type: 'retry.fallback_policy', atMs: this.#clock.nowMs(), operationType });
    const delaysMs: number[] = [];
    let previousDelayMs: number | undefined;
    for (let n = 1; ; n += 1) {
      const result = attempt({ attempt: n });
      const base = { operationType, attempt: n, maxAttempts: policy.maxAttempts };
      if (result.ok) {
        this.#emit({ type: 'retry.attempt', atMs: this.#clock.nowMs(), ...base, ok: true });
        return { success: true, result: result.value, attempts: n, sentToDlq: false, delaysMs, policyUsed };
      }
      const errorClass = classifyError(policy, result.error.code);
      this.#emit({ type: 'retry.attempt', atMs: this.#clock.nowMs(), ...base, ok: false, error: result.error, errorClass });
      if (errorClass === 'non_retryable' || n >= policy.maxAttempts) {
        const sentToDlq = errorClass === 'retryable';
        this.#emit({
          type: 'retry.gave_up',
          atMs: this.#clock.nowMs(),
          operationType,
          reason: sentToDlq ? 'exhausted' : 'non_retryable',
          attempts: n,
          sentToDlq,
        });
        return { success: false, attempts: n, finalError: result.error, sentToDlq, delaysMs, policyUsed };
      }
      const { delayMs, cappedMs } = backoffDelay(
        { strategy: policy.jitter, initialDelayMs: policy.initialDelayMs, maxDelayMs: policy.maxDelayMs, multiplier: policy.multiplier, failedAttemptIndex: n - 1, previousDelayMs },
        this.#rng,
      );
      this.#emit({ type: 'retry.backoff', atMs: this.#clock.nowMs(), operationType, afterAttempt: n, delayMs, cappedMs, strategy: policy.jitter });
      delaysMs.push(delayMs);
      previousDelayMs = delayMs;
      this.#clock.advance(delayMs);
    }
  }
}
