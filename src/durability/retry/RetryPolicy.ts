import { PolicyValidationError } from '../errors.js';
import { checkNumber, checkOneOf, checkString, checkStringList } from '../config/fields.js';
import { JITTER_STRATEGIES, type RetryPolicy } from '../config/types.js';

/**
 * A retry policy is the redelivery plan for one operation type: how many attempts in all (the first
 * included), how the wait grows between them, and which error codes are worth another attempt.
 * `validatePolicy` is the gate every policy passes — at load time and on every hot reload — so the
 * engine never holds a policy that cannot work.
 */

export type { RetryPolicy };

export type ErrorClass = 'retryable' | 'non_retryable';

/**
 * Rejects what docs/pillars.md §2 rejects — an empty id, `max_attempts < 1`, `multiplier <= 0` or NaN,
 * `initial_delay_ms <= 0`, `max_delay_ms < initial_delay_ms` — plus what the types cannot say (whole
 * milliseconds, a known jitter strategy, lists of codes). Returns a fresh copy; throws
 * PolicyValidationError naming the field as it is spelled in durability.yaml.
 */
export function validatePolicy(policy: RetryPolicy, fieldPrefix?: string): RetryPolicy {
  const E = PolicyValidationError;
  const at = (field: string): string => `${fieldPrefix ?? `retry.policies.${String(policy.operationType)}`}.${field}`;
  const operationType = checkString(E, at('operation_type'), policy.operationType);
  const maxAttempts = checkNumber(E, at('max_attempts'), policy.maxAttempts, { integer: true, min: 1 });
  const initialDelayMs = checkNumber(E, at('initial_delay_ms'), policy.initialDelayMs, { integer: true, above: 0 });
  const maxDelayMs = checkNumber(E, at('max_delay_ms'), policy.maxDelayMs, { integer: true, min: initialDelayMs });
  const multiplier = checkNumber(E, at('multiplier'), policy.multiplier, { above: 0 });
  const jitter = checkOneOf(E, at('jitter'), policy.jitter, JITTER_STRATEGIES);
  const retryableErrors = checkStringList(E, at('retryable_errors'), policy.retryableErrors);
  const nonRetryableErrors = checkStringList(E, at('non_retryable_errors'), policy.nonRetryableErrors);
  return { operationType, maxAttempts, initialDelayMs, maxDelayMs, multiplier, jitter, retryableErrors, nonRetryableErrors };
}

/**
 * Non-retryable wins; otherwise an empty retryable list means "everything else retries"; otherwise only
 * the listed codes retry (an unlisted code stops at once, like a non-retryable one).
 */
export function classifyError(policy: RetryPolicy, code: string): ErrorClass {
  if (policy.nonRetryableErrors.includes(code)) return 'non_retryable';
  if (policy.retryableErrors.length === 0) return 'retryable';
  return policy.retryableErrors.includes(code) ? 'retryable' : 'non_retryable';
}
