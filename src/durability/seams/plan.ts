/**
 * A scenario's `durability:` block, resolved: each pillar present gets every field, a field left out taking
 * the default of durability.yaml (src/durability/config/defaults.ts). The runner's tool calls are MCP-style
 * calls to an external client, so the backoff defaults are the `mcp_call` retry policy's and the breaker's
 * are `external_mcp_client`'s (seed, pillars 2 and 3). Values pass the pillars' own validators, so a
 * scenario cannot hold a policy or breaker that durability.yaml would refuse.
 */
import type { DurabilitySpec } from '../../scenario/types.js';
import { validateBreakerConfig } from '../breaker/config.js';
import { DEFAULT_DURABILITY_CONFIG } from '../config/defaults.js';
import type { BreakerConfig, JitterStrategy } from '../config/types.js';
import { validatePolicy } from '../retry/RetryPolicy.js';

/** The dependency the runner's breaker guards: the inventory service behind the four tools. */
export const TOOL_DEPENDENCY = 'inventory';

export interface BackoffPlan {
  initialDelayMs: number;
  maxDelayMs: number;
  multiplier: number;
  jitter: JitterStrategy;
}

export interface DlqPlan {
  ttlSeconds: number;
  /** Replay the record through a fresh runner after this virtual delay; undefined: leave it pending. */
  replayAfterMs?: number;
}

export interface DurabilityPlan {
  backoff?: BackoffPlan;
  breaker?: BreakerConfig;
  dlq?: DlqPlan;
}

export function resolveDurability(spec: DurabilitySpec | undefined): DurabilityPlan {
  if (spec === undefined) return {};
  const plan: DurabilityPlan = {};
  if (spec.retry !== undefined) {
    const base = DEFAULT_DURABILITY_CONFIG.retry.policies.mcp_call!;
    const policy = validatePolicy(
      {
        ...base,
        operationType: TOOL_DEPENDENCY,
        initialDelayMs: spec.retry.initial_delay_ms ?? base.initialDelayMs,
        maxDelayMs: spec.retry.max_delay_ms ?? base.maxDelayMs,
        multiplier: spec.retry.multiplier ?? base.multiplier,
        jitter: (spec.retry.jitter ?? base.jitter) as JitterStrategy,
      },
      'durability.retry',
    );
    plan.backoff = { initialDelayMs: policy.initialDelayMs, maxDelayMs: policy.maxDelayMs, multiplier: policy.multiplier, jitter: policy.jitter };
  }
  if (spec.breaker !== undefined) {
    const base = DEFAULT_DURABILITY_CONFIG.circuitBreaker.dependencies.external_mcp_client!;
    const b = spec.breaker;
    plan.breaker = validateBreakerConfig(
      {
        dependency: TOOL_DEPENDENCY,
        failureRateThreshold: b.failure_rate_threshold ?? base.failureRateThreshold,
        minRequestCount: b.min_request_count ?? base.minRequestCount,
        windowSize: b.window_size ?? base.windowSize,
        resetTimeoutSeconds: b.reset_timeout_seconds ?? base.resetTimeoutSeconds,
        probeSuccessRequired: b.probe_success_required ?? base.probeSuccessRequired,
        probeTimeoutSeconds: b.probe_timeout_seconds ?? base.probeTimeoutSeconds,
      },
      'durability.breaker',
    );
  }
  if (spec.dlq !== undefined) {
    plan.dlq = {
      ttlSeconds: spec.dlq.ttl_seconds ?? DEFAULT_DURABILITY_CONFIG.dlq.defaultTtlSeconds,
      ...(spec.dlq.replay_after_ms !== undefined ? { replayAfterMs: spec.dlq.replay_after_ms } : {}),
    };
  }
  return plan;
}
