/**
 * The shapes of the durability configuration, in TypeScript names (units in the names). The YAML file
 * (`durability.yaml`) uses the snake_case names of docs/pillars.md; `load.ts` maps one onto the other.
 */

/** How a backoff delay is spread (docs/pillars.md §2, ours: the seed had only `additive30`). */
export type JitterStrategy = 'none' | 'additive30' | 'full' | 'equal' | 'decorrelated';

export const JITTER_STRATEGIES: readonly JitterStrategy[] = ['none', 'additive30', 'full', 'equal', 'decorrelated'];

export interface IdempotencyConfig {
  enabled: boolean;
  dedupWindowSeconds: number;
  /** In UTF-8 bytes. A longer key is not deduplicated (a warning goes into the trace). */
  maxKeyLength: number;
  cleanupIntervalSeconds: number;
  /**
   * The in-progress lease: a placeholder older than this is taken to belong to a caller that crashed, and
   * the next checkAndRecord takes its key over (ours; AWS Powertools' `in_progress_expiration`).
   */
  inProgressExpirationSeconds: number;
}

export interface RetryPolicy {
  operationType: string;
  /** All tries, including the first. */
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
  multiplier: number;
  jitter: JitterStrategy;
  /** Empty: every code not listed as non-retryable retries. */
  retryableErrors: readonly string[];
  nonRetryableErrors: readonly string[];
}

export interface BreakerConfig {
  dependency: string;
  /** Opens when the failure rate is strictly greater than this, or every result failed (so 1.0 can open); in (0, 1]. */
  failureRateThreshold: number;
  minRequestCount: number;
  resetTimeoutSeconds: number;
  probeSuccessRequired: number;
  windowSize: number;
  probeTimeoutSeconds: number;
}

export interface CheckpointConfig {
  defaultTtlSeconds: number;
  maxCheckpoints: number;
  cleanupIntervalSeconds: number;
}

export interface DlqConfig {
  defaultTtlSeconds: number;
}

export interface DurabilityConfig {
  idempotency: IdempotencyConfig;
  retry: { policies: Record<string, RetryPolicy> };
  circuitBreaker: { dependencies: Record<string, BreakerConfig> };
  checkpoint: CheckpointConfig;
  dlq: DlqConfig;
}
