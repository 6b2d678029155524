import type { DurabilityConfig } from '../../durability/config/types.js';
import { ScenarioInputError } from '../ScenarioInputError.js';
import type { PathSegment } from '../../scenario/yamlSource.js';
import { msg } from '../../render/words/index.js';

/**
 * The error codes a lab may script: every code some retry policy of the configuration classifies. A code
 * no policy names is a typo far more often than an experiment (NETWORK_TIMOUT would silently "stop after
 * one attempt, not retryable"), so it is bad input, at its line.
 */
export function knownErrorCodes(config: DurabilityConfig): string[] {
  const codes = new Set<string>();
  for (const policy of Object.values(config.retry.policies)) {
    for (const code of [...policy.retryableErrors, ...policy.nonRetryableErrors]) codes.add(code);
  }
  return [...codes].sort();
}

export function requireKnownErrorCode(config: DurabilityConfig, code: string, path: readonly PathSegment[]): void {
  const known = knownErrorCodes(config);
  if (!known.includes(code)) throw new ScenarioInputError(msg('lab.input.unknownErrorCode', { code: JSON.stringify(code), known: known.join(', ') }), path);
}
