import { ADDITIVE_JITTER_RATIO, DECORRELATED_GROWTH } from '../config/defaults.js';
import type { JitterStrategy } from '../config/types.js';
import type { Rng } from '../../core/rng.js';

/**
 * How long to wait after a failed attempt. Pure: the same inputs and the same Rng stream give the same
 * delay. Delays are whole virtual milliseconds.
 *
 * capped(a) = min(ceil(initial × multiplier^a), max), a = index of the failed attempt (0 = the first).
 *   none          capped                                  every client waits exactly as long
 *   additive30    capped + [0, 0.3 × capped)              the seed's: can exceed max by < 30%
 *   full          [0, capped)                             AWS "full jitter"
 *   equal         capped/2 + [0, capped/2)                AWS "equal jitter"
 *   decorrelated  min(max, initial + [0, 3 × prev − initial))   AWS "decorrelated jitter"; ignores multiplier
 */

export interface BackoffInput {
  strategy: JitterStrategy;
  initialDelayMs: number;
  maxDelayMs: number;
  multiplier: number;
  /** 0-based index of the attempt that just failed. */
  failedAttemptIndex: number;
  /** The delay drawn last time (decorrelated grows from it); undefined before the first. */
  previousDelayMs?: number;
}

export interface Backoff {
  delayMs: number;
  /** The exponential figure before jitter (for decorrelated: the upper bound it drew below, capped). */
  cappedMs: number;
}

export function cappedDelayMs(initialDelayMs: number, maxDelayMs: number, multiplier: number, failedAttemptIndex: number): number {
  return Math.min(Math.ceil(initialDelayMs * multiplier ** failedAttemptIndex), maxDelayMs);
}

export function backoffDelay(input: BackoffInput, rng: Rng): Backoff {
  const capped = cappedDelayMs(input.initialDelayMs, input.maxDelayMs, input.multiplier, input.failedAttemptIndex);
  switch (input.strategy) {
    case 'none':
      return { delayMs: capped, cappedMs: capped };
    case 'additive30':
      return { delayMs: capped + Math.floor(rng.next() * ADDITIVE_JITTER_RATIO * capped), cappedMs: capped };
    case 'full':
      return { delayMs: Math.floor(rng.next() * capped), cappedMs: capped };
    case 'equal': {
      const half = capped / 2;
      return { delayMs: Math.floor(half + rng.next() * half), cappedMs: capped };
    }
    case 'decorrelated': {
      const previous = input.previousDelayMs ?? input.initialDelayMs;
      const upper = Math.max(input.initialDelayMs, DECORRELATED_GROWTH * previous);
      const drawn = input.initialDelayMs + Math.floor(rng.next() * (upper - input.initialDelayMs));
      return { delayMs: Math.min(input.maxDelayMs, drawn), cappedMs: Math.min(input.maxDelayMs, upper) };
    }
  }
}
