import { describe, expect, it } from 'vitest';
import { classifyError, validatePolicy } from '../../../src/durability/retry/RetryPolicy.js';
import { DEFAULT_DURABILITY_CONFIG } from '../../../src/durability/config/defaults.js';
import { PolicyValidationError, isDurabilityError } from '../../../src/durability/errors.js';
import type { RetryPolicy } from '../../../src/durability/config/types.js';
import { word } from '../../../src/render/words/index.js';

const MCP = DEFAULT_DURABILITY_CONFIG.retry.policies.mcp_call as RetryPolicy;
const withField = (patch: Partial<Record<keyof RetryPolicy, unknown>>): RetryPolicy => ({ ...MCP, ...patch }) as RetryPolicy;

function rejection(policy: RetryPolicy): PolicyValidationError {
  try {
    validatePolicy(policy);
  } catch (error) {
    if (error instanceof PolicyValidationError) return error;
    throw error;
  }
  throw new Error('expected validatePolicy to reject');
}

describe('the default policies (PILLARS §2)', () => {
  it.each([
    ['mcp_call', 3, 500, 10_000, ['NETWORK_TIMEOUT', 'SERVICE_UNAVAILABLE', 'RATE_LIMITED'], ['PERMISSION_DENIED', 'INVALID_SCHEMA', 'NOT_FOUND']],
    ['memory_write', 5, 200, 5_000, ['NETWORK_TIMEOUT', 'SERVICE_UNAVAILABLE'], ['PERMISSION_DENIED', 'INVALID_SCHEMA']],
    ['wiki_write', 3, 1_000, 30_000, ['NETWORK_TIMEOUT', 'SERVICE_UNAVAILABLE', 'RATE_LIMITED'], ['PERMISSION_DENIED', 'INVALID_SCHEMA']],
    ['message_send', 2, 1_000, 5_000, ['NETWORK_TIMEOUT'], ['PERMISSION_DENIED']],
    ['external_api', 3, 1_000, 60_000, ['NETWORK_TIMEOUT', 'SERVICE_UNAVAILABLE', 'RATE_LIMITED'], ['PERMISSION_DENIED', 'INVALID_SCHEMA']],
  ])('%s: %i attempts, %i..%i ms, multiplier 2, jitter additive30', (op, attempts, initial, max, retryable, nonRetryable) => {
    expect(DEFAULT_DURABILITY_CONFIG.retry.policies[op]).toEqual({
      operationType: op,
      maxAttempts: attempts,
      initialDelayMs: initial,
      maxDelayMs: max,
      multiplier: 2,
      jitter: 'additive30',
      retryableErrors: retryable,
      nonRetryableErrors: nonRetryable,
    });
  });

  it('has a "*" fallback of one attempt', () => {
    expect(DEFAULT_DURABILITY_CONFIG.retry.policies['*']).toMatchObject({ operationType: '*', maxAttempts: 1 });
  });
});

describe('validate() rejects a policy that cannot work', () => {
  it.each<[string, Partial<Record<keyof RetryPolicy, unknown>>, string]>([
    ['an empty operation type', { operationType: '' }, 'operation_type'],
    ['max_attempts 0', { maxAttempts: 0 }, 'max_attempts'],
    ['a fractional max_attempts', { maxAttempts: 2.5 }, 'max_attempts'],
    ['multiplier 0', { multiplier: 0 }, 'multiplier'],
    ['a negative multiplier', { multiplier: -2 }, 'multiplier'],
    ['multiplier NaN', { multiplier: Number.NaN }, 'multiplier'],
    ['initial_delay_ms 0', { initialDelayMs: 0 }, 'initial_delay_ms'],
    ['max_delay_ms below initial_delay_ms', { maxDelayMs: 499 }, 'max_delay_ms'],
    ['an unknown jitter strategy', { jitter: 'lots' }, 'jitter'],
    ['a retryable list that is not a list of codes', { retryableErrors: 'NETWORK_TIMEOUT' }, 'retryable_errors'],
  ])('%s', (_what, patch, field) => {
    const error = rejection(withField(patch));
    expect(error.code).toBe('POLICY_INVALID');
    expect(error.field).toBe(`retry.policies.${String(patch.operationType ?? 'mcp_call')}.${field}`);
  });

  it('names the field, the allowed range and the value given', () => {
    const error = rejection(withField({ maxDelayMs: 100 }));
    expect(word('en', error.said)).toBe('retry.policies.mcp_call.max_delay_ms must be an integer >= 500, got 100');
    expect(word('en', error.allowed)).toBe('an integer >= 500');
    expect(error.given).toBe(100);
    expect(isDurabilityError(error, 'POLICY_INVALID')).toBe(true);
  });

  it('accepts max_delay_ms equal to initial_delay_ms, and max_attempts 1', () => {
    expect(validatePolicy(withField({ maxDelayMs: 500, maxAttempts: 1 }))).toMatchObject({ maxDelayMs: 500, maxAttempts: 1 });
  });
});

describe('classification: non-retryable wins; an empty retryable list means "everything else"', () => {
  it('retries a listed transient code and stops on a listed refusal', () => {
    expect(classifyError(MCP, 'NETWORK_TIMEOUT')).toBe('retryable');
    expect(classifyError(MCP, 'PERMISSION_DENIED')).toBe('non_retryable');
  });

  it('lets non_retryable_errors win when a code is in both lists', () => {
    expect(classifyError(withField({ retryableErrors: ['PERMISSION_DENIED'] }), 'PERMISSION_DENIED')).toBe('non_retryable');
  });

  it('stops on a code in neither list when retryable_errors is not empty', () => {
    expect(classifyError(MCP, 'DISK_FULL')).toBe('non_retryable');
  });

  it('retries a code in neither list when retryable_errors is empty', () => {
    expect(classifyError(withField({ retryableErrors: [] }), 'DISK_FULL')).toBe('retryable');
  });
});
