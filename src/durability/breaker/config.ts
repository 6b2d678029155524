import { BreakerConfigError } from '../errors.js';
import { checkNumber, checkString } from '../config/fields.js';
import { message } from '../../core/message.js';
import type { BreakerConfig } from '../config/types.js';

/**
 * The gate every breaker configuration passes, at load time and on `upsertConfig`. Besides the ranges of
 * docs/pillars.md §3 it refuses `min_request_count > window_size` (ours): the window never holds that many
 * results, so such a breaker could never open — the original accepted it silently. A threshold of 1.0
 * is accepted: it opens when every result in the window failed (the trip rule in machine.ts).
 */
export function validateBreakerConfig(config: BreakerConfig, fieldPrefix?: string): BreakerConfig {
  const E = BreakerConfigError;
  const at = (field: string): string => `${fieldPrefix ?? `circuit_breaker.dependencies.${String(config.dependency)}`}.${field}`;
  const dependency = checkString(E, at('dependency'), config.dependency);
  const failureRateThreshold = checkNumber(E, at('failure_rate_threshold'), config.failureRateThreshold, { above: 0, max: 1 });
  const windowSize = checkNumber(E, at('window_size'), config.windowSize, { integer: true, min: 1 });
  const minRequestCount = checkNumber(E, at('min_request_count'), config.minRequestCount, { integer: true, min: 1 });
  if (minRequestCount > windowSize) {
    throw new E(
      at('min_request_count'),
      message('config.breakerWindow', { window: windowSize, min: minRequestCount }),
      minRequestCount,
    );
  }
  const resetTimeoutSeconds = checkNumber(E, at('reset_timeout_seconds'), config.resetTimeoutSeconds, { min: 1 });
  const probeSuccessRequired = checkNumber(E, at('probe_success_required'), config.probeSuccessRequired, { integer: true, min: 1 });
  const probeTimeoutSeconds = checkNumber(E, at('probe_timeout_seconds'), config.probeTimeoutSeconds, { min: 1 });
  return { dependency, failureRateThreshold, minRequestCount, resetTimeoutSeconds, probeSuccessRequired, windowSize, probeTimeoutSeconds };
}
