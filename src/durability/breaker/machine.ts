import type { BreakerConfig } from '../config/types.js';
import type { BreakerState, StateTransition } from '../events.js';

/**
 * The breaker's rules as pure functions of (snapshot, config, now) — no database, no clock — so every
 * boundary can be tested directly. CircuitBreaker persists the snapshot these return.
 *
 * Closed     every result enters a count-based window of window_size; once the window holds
 *            min_request_count results, a failure rate strictly above the threshold opens the breaker.
 * Open       calls are refused until reset_timeout has elapsed (elapsed >= reset); the first call after
 *            that moves to HalfOpen and IS the first probe (the original admitted a "ghost" extra one).
 * HalfOpen   at most probe_success_required probes in flight; that many successes close the breaker,
 *            one failure reopens it. A probe unreported for probe_timeout_seconds is re-armed (its slot
 *            freed). A report with no probe in flight is ignored.
 */

export interface BreakerSnapshot {
  state: BreakerState;
  /** Closed-state results, oldest first; true = failure. */
  window: boolean[];
  openedAtMs: number | null;
  /** Start times of the probes in flight, oldest first. */
  probeStartsMs: number[];
  probeSuccesses: number;
}

export const INITIAL_SNAPSHOT: Readonly<BreakerSnapshot> = Object.freeze({
  state: 'closed',
  window: [],
  openedAtMs: null,
  probeStartsMs: [],
  probeSuccesses: 0,
});

export type AdmitDecision =
  | { admitted: true; probe: boolean; next: BreakerSnapshot; transition?: StateTransition; rearmedStartsMs: number[] }
  | { admitted: false; state: 'open' | 'half_open'; retryAfterMs: number; next: BreakerSnapshot; rearmedStartsMs: number[]; transition?: undefined };

export interface ReportDecision {
  ignored: boolean;
  next: BreakerSnapshot;
  transition?: StateTransition;
}

/** failures / length, or null while the window is empty. */
export function failureRate(window: readonly boolean[]): number | null {
  return window.length === 0 ? null : window.filter(Boolean).length / window.length;
}

export function admit(s: BreakerSnapshot, config: BreakerConfig, nowMs: number): AdmitDecision {
  const resetMs = config.resetTimeoutSeconds * 1000;
  if (s.state === 'closed') return { admitted: true, probe: false, next: s, rearmedStartsMs: [] };
  if (s.state === 'open') {
    const openedAt = s.openedAtMs ?? nowMs;
    if (nowMs - openedAt < resetMs) {
      return { admitted: false, state: 'open', retryAfterMs: openedAt + resetMs - nowMs, next: s, rearmedStartsMs: [] };
    }
    const next: BreakerSnapshot = { ...s, state: 'half_open', probeStartsMs: [nowMs], probeSuccesses: 0 };
    const transition: StateTransition = {
      dependency: config.dependency,
      from: 'open',
      to: 'half_open',
      requestCount: 0,
      reason: 'reset_timeout_elapsed',
      atMs: nowMs,
    };
    return { admitted: true, probe: true, next, transition, rearmedStartsMs: [] };
  }
  const timeoutMs = config.probeTimeoutSeconds * 1000;
  const rearmedStartsMs = s.probeStartsMs.filter((start) => nowMs - start >= timeoutMs);
  const live = s.probeStartsMs.filter((start) => nowMs - start < timeoutMs);
  if (live.length < config.probeSuccessRequired) {
    return { admitted: true, probe: true, next: { ...s, probeStartsMs: [...live, nowMs] }, rearmedStartsMs };
  }
  const retryAfterMs = Math.min(...live) + timeoutMs - nowMs;
  return { admitted: false, state: 'half_open', retryAfterMs, next: { ...s, probeStartsMs: live }, rearmedStartsMs };
}

export function report(s: BreakerSnapshot, config: BreakerConfig, nowMs: number, success: boolean): ReportDecision {
  if (s.state === 'closed') {
    const window = [...s.window, !success].slice(-config.windowSize);
    const rate = failureRate(window) ?? 0;
    if (window.length >= config.minRequestCount && rate > config.failureRateThreshold) {
      const next: BreakerSnapshot = { ...s, state: 'open', window, openedAtMs: nowMs, probeStartsMs: [], probeSuccesses: 0 };
      return { ignored: false, next, transition: opened(config, nowMs, 'closed', 'failure_rate', window.length, rate) };
    }
    return { ignored: false, next: { ...s, window } };
  }
  if (s.state === 'open' || s.probeStartsMs.length === 0) return { ignored: true, next: s };
  const probeStartsMs = s.probeStartsMs.slice(1);
  if (!success) {
    const next: BreakerSnapshot = { ...s, state: 'open', openedAtMs: nowMs, probeStartsMs: [], probeSuccesses: 0 };
    return { ignored: false, next, transition: opened(config, nowMs, 'half_open', 'probe_failed', s.probeSuccesses + 1) };
  }
  const probeSuccesses = s.probeSuccesses + 1;
  if (probeSuccesses >= config.probeSuccessRequired) {
    return {
      ignored: false,
      next: { ...INITIAL_SNAPSHOT, window: [], probeStartsMs: [] },
      transition: {
        dependency: config.dependency,
        from: 'half_open',
        to: 'closed',
        requestCount: probeSuccesses,
        reason: 'probes_succeeded',
        atMs: nowMs,
      },
    };
  }
  return { ignored: false, next: { ...s, probeStartsMs, probeSuccesses } };
}

function opened(
  config: BreakerConfig,
  nowMs: number,
  from: BreakerState,
  reason: 'failure_rate' | 'probe_failed',
  requestCount: number,
  rate?: number,
): StateTransition {
  const t: StateTransition = { dependency: config.dependency, from, to: 'open', requestCount, resetTimeoutSeconds: config.resetTimeoutSeconds, reason, atMs: nowMs };
  if (rate !== undefined) t.failureRate = rate;
  return t;
}
