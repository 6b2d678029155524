import { readFileSync } from 'node:fs';
import { load as parseYaml } from 'js-yaml';
import { message } from '../../core/message.js';
import { validateBreakerConfig } from '../breaker/config.js';
import { ConfigError } from '../errors.js';
import { validatePolicy } from '../retry/RetryPolicy.js';
import { checkBoolean, checkNumber } from './fields.js';
import { defaultDurabilityConfig } from './defaults.js';
import type { BreakerConfig, DurabilityConfig, JitterStrategy, RetryPolicy } from './types.js';

/**
 * durability.yaml → DurabilityConfig. Every field is optional and falls back to its default; every
 * field given is validated, and an unknown one is refused — a typo must not silently mean "default".
 * Errors name the dotted field path, the allowed range and the value given. The same function applies a
 * pillar scenario's `config:` overrides on top of the defaults.
 */

type Raw = Record<string, unknown>;

const POLICY_FIELDS = ['max_attempts', 'initial_delay_ms', 'max_delay_ms', 'multiplier', 'jitter', 'retryable_errors', 'non_retryable_errors'];
const BREAKER_FIELDS = ['failure_rate_threshold', 'min_request_count', 'reset_timeout_seconds', 'probe_success_required', 'window_size', 'probe_timeout_seconds'];

export function loadDurabilityConfig(path: string): DurabilityConfig {
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(path, message('config.readableYaml'), (error as Error).message);
  }
  return applyConfigOverrides(defaultDurabilityConfig(), raw ?? {});
}

/** Apply a (partial) configuration in durability.yaml's shape on top of `base`; returns a new object. */
export function applyConfigOverrides(base: DurabilityConfig, raw: unknown, prefix = ''): DurabilityConfig {
  const config = structuredClone(base);
  const top = object(raw, prefix, ['idempotency', 'retry', 'circuit_breaker', 'checkpoint', 'dlq']);
  const at = (name: string): string => (prefix ? `${prefix}.${name}` : name);

  if (top.idempotency !== undefined) {
    const p = at('idempotency');
    const r = object(top.idempotency, p, ['enabled', 'dedup_window_seconds', 'max_key_length', 'cleanup_interval_seconds', 'in_progress_expiration_seconds']);
    const c = config.idempotency;
    if (r.enabled !== undefined) c.enabled = checkBoolean(ConfigError, `${p}.enabled`, r.enabled);
    if (r.dedup_window_seconds !== undefined) c.dedupWindowSeconds = checkNumber(ConfigError, `${p}.dedup_window_seconds`, r.dedup_window_seconds, { above: 0 });
    if (r.max_key_length !== undefined) c.maxKeyLength = checkNumber(ConfigError, `${p}.max_key_length`, r.max_key_length, { integer: true, min: 1 });
    if (r.cleanup_interval_seconds !== undefined) {
      c.cleanupIntervalSeconds = checkNumber(ConfigError, `${p}.cleanup_interval_seconds`, r.cleanup_interval_seconds, { above: 0 });
    }
    if (r.in_progress_expiration_seconds !== undefined) {
      c.inProgressExpirationSeconds = checkNumber(ConfigError, `${p}.in_progress_expiration_seconds`, r.in_progress_expiration_seconds, { above: 0 });
    }
  }

  if (top.retry !== undefined) {
    const p = at('retry');
    const policies = object(object(top.retry, p, ['policies']).policies ?? {}, `${p}.policies`);
    for (const [operationType, entry] of Object.entries(policies)) {
      const field = `${p}.policies.${operationType}`;
      config.retry.policies[operationType] = policyFrom(operationType, object(entry, field, POLICY_FIELDS), config.retry.policies[operationType], field);
    }
  }

  if (top.circuit_breaker !== undefined) {
    const p = at('circuit_breaker');
    const deps = object(object(top.circuit_breaker, p, ['dependencies']).dependencies ?? {}, `${p}.dependencies`);
    for (const [dependency, entry] of Object.entries(deps)) {
      const field = `${p}.dependencies.${dependency}`;
      config.circuitBreaker.dependencies[dependency] = breakerFrom(dependency, object(entry, field, BREAKER_FIELDS), config.circuitBreaker.dependencies[dependency], field);
    }
  }

  if (top.checkpoint !== undefined) {
    const p = at('checkpoint');
    const r = object(top.checkpoint, p, ['default_ttl_seconds', 'max_checkpoints', 'cleanup_interval_seconds']);
    const c = config.checkpoint;
    if (r.default_ttl_seconds !== undefined) c.defaultTtlSeconds = checkNumber(ConfigError, `${p}.default_ttl_seconds`, r.default_ttl_seconds, { above: 0 });
    if (r.max_checkpoints !== undefined) c.maxCheckpoints = checkNumber(ConfigError, `${p}.max_checkpoints`, r.max_checkpoints, { integer: true, min: 1 });
    if (r.cleanup_interval_seconds !== undefined) {
      c.cleanupIntervalSeconds = checkNumber(ConfigError, `${p}.cleanup_interval_seconds`, r.cleanup_interval_seconds, { above: 0 });
    }
  }

  if (top.dlq !== undefined) {
    const p = at('dlq');
    const r = object(top.dlq, p, ['default_ttl_seconds']);
    if (r.default_ttl_seconds !== undefined) config.dlq.defaultTtlSeconds = checkNumber(ConfigError, `${p}.default_ttl_seconds`, r.default_ttl_seconds, { above: 0 });
  }
  return config;
}

/** `field` is the dotted path of the mapping; '' for the top level of the file. */
function object(value: unknown, field: string, known?: readonly string[]): Raw {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(field, message('config.mapping'), value);
  const raw = value as Raw;
  if (known) {
    for (const key of Object.keys(raw)) {
      if (!known.includes(key)) throw new ConfigError(field ? `${field}.${key}` : key, message('config.knownField', { known: known.join(', ') }), raw[key]);
    }
  }
  return raw;
}

function pick(raw: Raw, name: string, fallback: unknown): unknown {
  return raw[name] === undefined ? fallback : raw[name];
}

function jitterFrom(value: unknown): unknown {
  if (value === true) return 'additive30' satisfies JitterStrategy; // the seed's `jitter = true`
  if (value === false) return 'none' satisfies JitterStrategy;
  return value;
}

function policyFrom(operationType: string, r: Raw, base: RetryPolicy | undefined, field: string): RetryPolicy {
  const candidate = {
    operationType,
    maxAttempts: pick(r, 'max_attempts', base?.maxAttempts),
    initialDelayMs: pick(r, 'initial_delay_ms', base?.initialDelayMs),
    maxDelayMs: pick(r, 'max_delay_ms', base?.maxDelayMs),
    multiplier: pick(r, 'multiplier', base?.multiplier ?? 2),
    jitter: jitterFrom(pick(r, 'jitter', base?.jitter ?? 'additive30')),
    retryableErrors: pick(r, 'retryable_errors', base?.retryableErrors ?? []),
    nonRetryableErrors: pick(r, 'non_retryable_errors', base?.nonRetryableErrors ?? []),
  } as RetryPolicy;
  return validatePolicy(candidate, field);
}

function breakerFrom(dependency: string, r: Raw, base: BreakerConfig | undefined, field: string): BreakerConfig {
  const candidate = {
    dependency,
    failureRateThreshold: pick(r, 'failure_rate_threshold', base?.failureRateThreshold),
    minRequestCount: pick(r, 'min_request_count', base?.minRequestCount),
    resetTimeoutSeconds: pick(r, 'reset_timeout_seconds', base?.resetTimeoutSeconds),
    probeSuccessRequired: pick(r, 'probe_success_required', base?.probeSuccessRequired),
    windowSize: pick(r, 'window_size', base?.windowSize ?? 20),
    probeTimeoutSeconds: pick(r, 'probe_timeout_seconds', base?.probeTimeoutSeconds ?? 30),
  } as BreakerConfig;
  return validateBreakerConfig(candidate, field);
}
