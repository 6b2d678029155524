import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { writeFileSync } from 'node:fs';
import { applyConfigOverrides, loadDurabilityConfig } from '../../../src/durability/config/load.js';
import { DEFAULT_DURABILITY_CONFIG, defaultDurabilityConfig } from '../../../src/durability/config/defaults.js';
import { ConfigError, isDurabilityError } from '../../../src/durability/errors.js';
import { tempDir } from '../helpers.js';
import { word } from '../../../src/render/words/index.js';

const DURABILITY_YAML = fileURLToPath(new URL('../../../durability.yaml', import.meta.url));

function rejection(raw: unknown): ConfigError {
  try {
    applyConfigOverrides(defaultDurabilityConfig(), raw);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('durability.yaml', () => {
  it('states exactly the defaults the code holds (the two cannot drift)', () => {
    expect(loadDurabilityConfig(DURABILITY_YAML)).toEqual(DEFAULT_DURABILITY_CONFIG);
  });
});

describe('loading: every field optional, every field given validated, unknown fields refused', () => {
  it('keeps every default for an empty file', () => {
    expect(applyConfigOverrides(defaultDurabilityConfig(), {})).toEqual(DEFAULT_DURABILITY_CONFIG);
  });

  it('reads in_progress_expiration_seconds (default 900 s) into the idempotency config', () => {
    expect(DEFAULT_DURABILITY_CONFIG.idempotency.inProgressExpirationSeconds).toBe(900);
    const config = applyConfigOverrides(defaultDurabilityConfig(), { idempotency: { in_progress_expiration_seconds: 120 } });
    expect(config.idempotency).toEqual({ ...DEFAULT_DURABILITY_CONFIG.idempotency, inProgressExpirationSeconds: 120 });
    expect(word('en', rejection({ idempotency: { in_progress_expiration_seconds: 0 } }).said)).toBe(
      'idempotency.in_progress_expiration_seconds must be a number > 0, got 0',
    );
  });

  it('overrides one field and keeps the rest of that policy', () => {
    const config = applyConfigOverrides(defaultDurabilityConfig(), { retry: { policies: { mcp_call: { max_attempts: 5 } } } });
    expect(config.retry.policies.mcp_call).toEqual({ ...DEFAULT_DURABILITY_CONFIG.retry.policies.mcp_call, maxAttempts: 5 });
  });

  it('reads the seed’s jitter = true as additive30 and false as none', () => {
    const config = applyConfigOverrides(defaultDurabilityConfig(), { retry: { policies: { mcp_call: { jitter: false }, wiki_write: { jitter: true } } } });
    expect(config.retry.policies.mcp_call?.jitter).toBe('none');
    expect(config.retry.policies.wiki_write?.jitter).toBe('additive30');
  });

  it('adds a policy for a new operation type, defaulting multiplier 2 and jitter additive30', () => {
    const config = applyConfigOverrides(defaultDurabilityConfig(), {
      retry: { policies: { calendar_sync: { max_attempts: 4, initial_delay_ms: 250, max_delay_ms: 4000 } } },
    });
    expect(config.retry.policies.calendar_sync).toEqual({
      operationType: 'calendar_sync',
      maxAttempts: 4,
      initialDelayMs: 250,
      maxDelayMs: 4000,
      multiplier: 2,
      jitter: 'additive30',
      retryableErrors: [],
      nonRetryableErrors: [],
    });
  });

  it('adds a breaker for a new dependency, defaulting window 20 and probe timeout 30 s', () => {
    const config = applyConfigOverrides(defaultDurabilityConfig(), {
      circuit_breaker: { dependencies: { payments: { failure_rate_threshold: 0.2, min_request_count: 4, reset_timeout_seconds: 10, probe_success_required: 1 } } },
    });
    expect(config.circuitBreaker.dependencies.payments).toMatchObject({ windowSize: 20, probeTimeoutSeconds: 30 });
  });

  it.each<[string, unknown, string, string]>([
    ['a typo in a field name', { idempotency: { dedup_window_secs: 10 } }, 'idempotency.dedup_window_secs', 'CONFIG_INVALID'],
    ['an unknown section', { retries: {} }, 'retries', 'CONFIG_INVALID'],
    ['a window of 0 s', { idempotency: { dedup_window_seconds: 0 } }, 'idempotency.dedup_window_seconds', 'CONFIG_INVALID'],
    ['enabled: "yes"', { idempotency: { enabled: 'yes' } }, 'idempotency.enabled', 'CONFIG_INVALID'],
    ['max_delay_ms below initial', { retry: { policies: { mcp_call: { max_delay_ms: 100 } } } }, 'retry.policies.mcp_call.max_delay_ms', 'POLICY_INVALID'],
    ['a new policy without max_attempts', { retry: { policies: { x: { initial_delay_ms: 1, max_delay_ms: 1 } } } }, 'retry.policies.x.max_attempts', 'POLICY_INVALID'],
    ['min_request_count > window_size', { circuit_breaker: { dependencies: { memory_service: { min_request_count: 30 } } } }, 'circuit_breaker.dependencies.memory_service.min_request_count', 'BREAKER_CONFIG_INVALID'],
    ['a threshold of 0', { circuit_breaker: { dependencies: { wiki_service: { failure_rate_threshold: 0 } } } }, 'circuit_breaker.dependencies.wiki_service.failure_rate_threshold', 'BREAKER_CONFIG_INVALID'],
    ['max_checkpoints 0', { checkpoint: { max_checkpoints: 0 } }, 'checkpoint.max_checkpoints', 'CONFIG_INVALID'],
    ['a DLQ ttl of -1', { dlq: { default_ttl_seconds: -1 } }, 'dlq.default_ttl_seconds', 'CONFIG_INVALID'],
    ['a list where a mapping belongs', { checkpoint: [1] }, 'checkpoint', 'CONFIG_INVALID'],
  ])('refuses %s, naming the field', (_what, raw, field, code) => {
    const error = rejection(raw);
    expect(error.field).toBe(field);
    expect(error.code).toBe(code);
  });

  it('says what is allowed and what was given', () => {
    expect(word('en', rejection({ idempotency: { max_key_length: 12.5 } }).said)).toBe('idempotency.max_key_length must be an integer >= 1, got 12.5');
  });

  it('reports a file that is not YAML as a configuration error', () => {
    const tmp = tempDir();
    const path = tmp.path('bad.yaml');
    writeFileSync(path, 'retry: [unclosed');
    try {
      expect(() => loadDurabilityConfig(path)).toThrow(ConfigError);
      let caught: unknown;
      try {
        loadDurabilityConfig(path);
      } catch (error) {
        caught = error;
      }
      expect(isDurabilityError(caught, 'CONFIG_INVALID')).toBe(true);
    } finally {
      tmp.remove();
    }
  });
});
