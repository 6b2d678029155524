import { describe, expect, it } from 'vitest';
import { validateBreakerConfig } from '../../../src/durability/breaker/config.js';
import { DEFAULT_DURABILITY_CONFIG } from '../../../src/durability/config/defaults.js';
import { BreakerConfigError } from '../../../src/durability/errors.js';
import type { BreakerConfig } from '../../../src/durability/config/types.js';
import { thrownWords } from '../../support.js';

const MEMORY = DEFAULT_DURABILITY_CONFIG.circuitBreaker.dependencies.memory_service as BreakerConfig;
const bad = (patch: Partial<Record<keyof BreakerConfig, unknown>>): BreakerConfig => ({ ...MEMORY, ...patch }) as BreakerConfig;

describe('the default breakers (PILLARS §3)', () => {
  it.each([
    ['memory_service', 0.5, 10, 30, 2],
    ['external_mcp_client', 0.3, 5, 60, 1],
    ['wiki_service', 0.4, 8, 45, 2],
  ])('%s: threshold %d, min %i requests, reset %i s, %i probes, window 20, probe timeout 30 s', (dep, threshold, min, reset, probes) => {
    expect(DEFAULT_DURABILITY_CONFIG.circuitBreaker.dependencies[dep]).toEqual({
      dependency: dep,
      failureRateThreshold: threshold,
      minRequestCount: min,
      resetTimeoutSeconds: reset,
      probeSuccessRequired: probes,
      windowSize: 20,
      probeTimeoutSeconds: 30,
    });
  });
});

describe('validation', () => {
  it.each<[string, Partial<Record<keyof BreakerConfig, unknown>>, string]>([
    ['threshold 0 (must be above 0)', { failureRateThreshold: 0 }, 'failure_rate_threshold'],
    ['threshold above 1', { failureRateThreshold: 1.01 }, 'failure_rate_threshold'],
    ['threshold NaN', { failureRateThreshold: Number.NaN }, 'failure_rate_threshold'],
    ['min_request_count 0', { minRequestCount: 0 }, 'min_request_count'],
    ['min_request_count above window_size (could never open; ours)', { minRequestCount: 21 }, 'min_request_count'],
    ['reset_timeout_seconds below 1', { resetTimeoutSeconds: 0.5 }, 'reset_timeout_seconds'],
    ['probe_success_required 0', { probeSuccessRequired: 0 }, 'probe_success_required'],
    ['window_size 0', { windowSize: 0 }, 'window_size'],
    ['probe_timeout_seconds 0', { probeTimeoutSeconds: 0 }, 'probe_timeout_seconds'],
    ['an empty dependency', { dependency: '' }, 'dependency'],
  ])('rejects %s', (_what, patch, field) => {
    try {
      validateBreakerConfig(bad(patch));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(BreakerConfigError);
      expect((error as BreakerConfigError).code).toBe('BREAKER_CONFIG_INVALID');
      expect((error as BreakerConfigError).field).toBe(`circuit_breaker.dependencies.${String(patch.dependency ?? 'memory_service')}.${field}`);
    }
  });

  it('accepts the edges: threshold exactly 1, min_request_count equal to window_size', () => {
    expect(validateBreakerConfig(bad({ failureRateThreshold: 1, minRequestCount: 20 }))).toMatchObject({ failureRateThreshold: 1, minRequestCount: 20 });
  });

  it('explains why min_request_count > window_size is refused, with the value given', () => {
    expect(thrownWords(() => validateBreakerConfig(bad({ minRequestCount: 25, windowSize: 20 })))).toBe(
      'circuit_breaker.dependencies.memory_service.min_request_count must be an integer in [1, window_size = 20] (a window of 20 results never reaches 25, so the breaker could never open), got 25',
    );
  });
});
