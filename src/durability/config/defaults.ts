import type { DurabilityConfig, RetryPolicy, BreakerConfig } from './types.js';

/**
 * Every default of the five pillars, in one place. `durability.yaml` at the repository root states the
 * same values field by field for people; a test loads it and compares it with this object, so the two
 * cannot drift. "seed" below means the chapter's source document on the five pillars, as refined by docs/pillars.md.
 */

/** Name of the retry policy used for an operation type that has none (docs/pillars.md §2, ours). */
export const FALLBACK_OPERATION_TYPE = '*';

/** additive30 draws jitter from [0, 0.3 × capped): "up to 30% random jitter" (seed, pillar 2). */
export const ADDITIVE_JITTER_RATIO = 0.3;

/**
 * decorrelated draws the next delay from [initial, 3 × previous), capped: the growth factor 3 is the one
 * of "Exponential Backoff And Jitter" (Marc Brooker, AWS Architecture Blog, 2015).
 */
export const DECORRELATED_GROWTH = 3;

function policy(
  operationType: string,
  maxAttempts: number,
  initialDelayMs: number,
  maxDelayMs: number,
  retryableErrors: string[],
  nonRetryableErrors: string[],
): RetryPolicy {
  // multiplier 2.0 and jitter on (additive30) for every default policy: seed, pillar 2.
  return { operationType, maxAttempts, initialDelayMs, maxDelayMs, multiplier: 2, jitter: 'additive30', retryableErrors, nonRetryableErrors };
}

function breaker(
  dependency: string,
  failureRateThreshold: number,
  minRequestCount: number,
  resetTimeoutSeconds: number,
  probeSuccessRequired: number,
): BreakerConfig {
  // window_size 20 and probe_timeout_seconds 30: the original implementation's defaults (docs/pillars.md §3).
  return { dependency, failureRateThreshold, minRequestCount, resetTimeoutSeconds, probeSuccessRequired, windowSize: 20, probeTimeoutSeconds: 30 };
}

const NET = ['NETWORK_TIMEOUT', 'SERVICE_UNAVAILABLE', 'RATE_LIMITED'];
const DENIED = ['PERMISSION_DENIED', 'INVALID_SCHEMA'];

const DEFAULTS: DurabilityConfig = {
  // seed, pillar 1: dedup_window_seconds 3600, max_key_length 256, cleanup_interval_seconds 7200.
  // in_progress_expiration_seconds 900 (ours; the seed has no lease): AWS Lambda Powertools sets a
  // placeholder's in_progress_expiration to the invocation's remaining time, which can never exceed Lambda's
  // longest timeout, 15 min = 900 s — so 900 s is the longest lease Powertools ever gives.
  idempotency: { enabled: true, dedupWindowSeconds: 3600, maxKeyLength: 256, cleanupIntervalSeconds: 7200, inProgressExpirationSeconds: 900 },
  retry: {
    policies: {
      // seed, pillar 2 ([retry.mcp_call] is quoted there in full); the other four: docs/pillars.md §2 table.
      mcp_call: policy('mcp_call', 3, 500, 10_000, NET, [...DENIED, 'NOT_FOUND']),
      memory_write: policy('memory_write', 5, 200, 5_000, ['NETWORK_TIMEOUT', 'SERVICE_UNAVAILABLE'], DENIED),
      wiki_write: policy('wiki_write', 3, 1_000, 30_000, NET, DENIED),
      message_send: policy('message_send', 2, 1_000, 5_000, ['NETWORK_TIMEOUT'], ['PERMISSION_DENIED']),
      external_api: policy('external_api', 3, 1_000, 60_000, NET, DENIED),
      // ours: an unknown operation type gets one attempt; classification still decides DLQ or not.
      // Empty retryable list = every code not listed as non-retryable counts as transient.
      [FALLBACK_OPERATION_TYPE]: {
        ...policy(FALLBACK_OPERATION_TYPE, 1, 1_000, 1_000, [], [...DENIED, 'NOT_FOUND']),
        jitter: 'none',
      },
    },
  },
  circuitBreaker: {
    dependencies: {
      // seed, pillar 3 (thresholds) and docs/pillars.md §3 (min requests, reset timeout, probes).
      memory_service: breaker('memory_service', 0.5, 10, 30, 2),
      external_mcp_client: breaker('external_mcp_client', 0.3, 5, 60, 1),
      wiki_service: breaker('wiki_service', 0.4, 8, 45, 2),
    },
  },
  // seed, pillar 4: 24 h TTL, max_checkpoints 10_000, hourly cleanup.
  checkpoint: { defaultTtlSeconds: 86_400, maxCheckpoints: 10_000, cleanupIntervalSeconds: 3_600 },
  // docs/pillars.md §5: a DLQ record lives 24 h by default.
  dlq: { defaultTtlSeconds: 86_400 },
};

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** The defaults, frozen: read them, never mutate them. */
export const DEFAULT_DURABILITY_CONFIG: Readonly<DurabilityConfig> = deepFreeze(DEFAULTS);

/** A fresh, mutable copy of the defaults. */
export function defaultDurabilityConfig(): DurabilityConfig {
  return structuredClone(DEFAULTS);
}
