import type { BreakerConfig } from '../config/types.js';
import type { BreakerState, StateTransition } from '../events.js';

/**
 * The breaker's rules as pure functions of (snapshot, config, now) — no database, no clock — so every
 * boundary can be tested directly. CircuitBreaker persists the snapshot these return.
 *
 * Closed     every result enters a count-based window of window_size; once the window holds
 *            min_request_count results, a failure rate strictly above the threshold opens the breaker.
 *            Threshold 1.0 (ours): no rate is above 1, so "strictly above" alone could never open it;
 *            the rule is "above the threshold, or every result in the window failed", which changes
 *            nothing below 1.0 and makes 1.0 mean "open only on a total outage".
 * Open       calls are refused until reset_timeout has elapsed (elapsed >= reset); the first call after
 *            that moves to HalfOpen and IS the first probe (the original admitted a "ghost" extra one).
 * HalfOpen   at most probe_success_required probes in flight; that many successes close the breaker,
 *            one failure reopens it. A probe unreported for probe_timeout_seconds is re-armed (its slot
 *            freed). A report with no probe in flight is ignored.
 *
 * Tickets (ours): every admitted call gets the next number of a sequence kept in the snapshot, so never
 * reissued. A report that carries its ticket counts only for that call: in HalfOpen, only while that very
 * probe is in flight (a re-armed probe's late report is ignored — without tickets it was taken for the
 * live probe's and could close the breaker); in Closed, only if the call was admitted in the current
 * closed period (an older one reports on a window it was never part of; closed calls are not tracked one
 * by one — the window counts results — so a closed ticket reported twice counts twice). A report without
 * a ticket follows the older rule: Closed → into the window; HalfOpen → the oldest live probe.
 *
 * `settle` is what time alone does — an open breaker past its reset timeout reads half_open, a probe past
 * its timeout reads re-armed — so state() can say what a call made now would meet without writing.
 */

export interface Probe {
  ticket: number;
  startedAtMs: number;
}

export interface BreakerSnapshot {
  state: BreakerState;
  /** Closed-state results, oldest first; true = failure. */
  window: boolean[];
  openedAtMs: number | null;
  /** The probes in flight, oldest first. */
  probes: Probe[];
  probeSuccesses: number;
  /** The ticket the next admitted call gets. */
  nextTicket: number;
  /** The first ticket of the current closed period (tickets below it were admitted before the last close). */
  closedSinceTicket: number;
}

export const INITIAL_SNAPSHOT: Readonly<BreakerSnapshot> = Object.freeze({
  state: 'closed',
  window: [],
  openedAtMs: null,
  probes: [],
  probeSuccesses: 0,
  nextTicket: 1,
  closedSinceTicket: 1,
});

/** A closed breaker with an empty window that keeps its ticket sequence (a close starts a new period). */
export function closedAfresh(s: BreakerSnapshot): BreakerSnapshot {
  return { ...INITIAL_SNAPSHOT, window: [], probes: [], nextTicket: s.nextTicket, closedSinceTicket: s.nextTicket };
}

export type AdmitDecision =
  | { admitted: true; probe: boolean; ticket: number; next: BreakerSnapshot; transition?: StateTransition; rearmed: Probe[] }
  | { admitted: false; state: 'open' | 'half_open'; retryAfterMs: number; next: BreakerSnapshot; rearmed: Probe[]; transition?: undefined };

export type IgnoreReason = 'no_probe_in_flight' | 'ticket_not_in_flight';

export type ReportDecision =
  | { ignored: true; reason: IgnoreReason; next: BreakerSnapshot; rearmed: Probe[]; transition?: undefined }
  | { ignored: false; next: BreakerSnapshot; rearmed: Probe[]; transition?: StateTransition };

/** failures / length, or null while the window is empty. */
export function failureRate(window: readonly boolean[]): number | null {
  return window.length === 0 ? null : window.filter(Boolean).length / window.length;
}

/** The trip rule of a closed breaker whose window holds at least min_request_count results. */
export function trips(window: readonly boolean[], threshold: number): boolean {
  const failures = window.filter(Boolean).length;
  return failures / window.length > threshold || (window.length > 0 && failures === window.length);
}

/** What time alone has done to `s` by `nowMs`: the snapshot a call made now would meet, and the probes re-armed. */
export function settle(s: BreakerSnapshot, config: BreakerConfig, nowMs: number): { view: BreakerSnapshot; rearmed: Probe[] } {
  if (s.state === 'open' && nowMs - (s.openedAtMs ?? nowMs) >= config.resetTimeoutSeconds * 1000) {
    return { view: { ...s, state: 'half_open', probes: [], probeSuccesses: 0 }, rearmed: [] };
  }
  if (s.state !== 'half_open') return { view: s, rearmed: [] };
  const timeoutMs = config.probeTimeoutSeconds * 1000;
  const live = s.probes.filter((p) => nowMs - p.startedAtMs < timeoutMs);
  const rearmed = s.probes.filter((p) => nowMs - p.startedAtMs >= timeoutMs);
  return { view: rearmed.length === 0 ? s : { ...s, probes: live }, rearmed };
}

export function admit(s: BreakerSnapshot, config: BreakerConfig, nowMs: number): AdmitDecision {
  const { view, rearmed } = settle(s, config, nowMs);
  const ticket = s.nextTicket;
  if (view.state === 'closed') return { admitted: true, probe: false, ticket, next: { ...s, nextTicket: ticket + 1 }, rearmed };
  if (view.state === 'open') {
    const retryAfterMs = (s.openedAtMs ?? nowMs) + config.resetTimeoutSeconds * 1000 - nowMs;
    return { admitted: false, state: 'open', retryAfterMs, next: s, rearmed };
  }
  if (view.probes.length < config.probeSuccessRequired) {
    const next: BreakerSnapshot = { ...view, probes: [...view.probes, { ticket, startedAtMs: nowMs }], nextTicket: ticket + 1 };
    const transition: StateTransition | undefined =
      s.state === 'open'
        ? { dependency: config.dependency, from: 'open', to: 'half_open', requestCount: 0, reason: 'reset_timeout_elapsed', atMs: nowMs }
        : undefined;
    return { admitted: true, probe: true, ticket, next, rearmed, ...(transition ? { transition } : {}) };
  }
  const retryAfterMs = Math.min(...view.probes.map((p) => p.startedAtMs)) + config.probeTimeoutSeconds * 1000 - nowMs;
  return { admitted: false, state: 'half_open', retryAfterMs, next: view, rearmed };
}

export function report(s: BreakerSnapshot, config: BreakerConfig, nowMs: number, success: boolean, ticket?: number): ReportDecision {
  if (s.state === 'closed') {
    const known = ticket === undefined || (Number.isInteger(ticket) && ticket >= s.closedSinceTicket && ticket < s.nextTicket);
    if (!known) return { ignored: true, reason: 'ticket_not_in_flight', next: s, rearmed: [] };
    const window = [...s.window, !success].slice(-config.windowSize);
    if (window.length >= config.minRequestCount && trips(window, config.failureRateThreshold)) {
      const next: BreakerSnapshot = { ...s, state: 'open', window, openedAtMs: nowMs, probes: [], probeSuccesses: 0 };
      return { ignored: false, next, rearmed: [], transition: opened(config, nowMs, 'closed', 'failure_rate', window.length, failureRate(window) ?? 0) };
    }
    return { ignored: false, next: { ...s, window }, rearmed: [] };
  }
  // Open (past its reset timeout or not) has no probe in flight; HalfOpen: re-arm by time first.
  const { view, rearmed } = s.state === 'open' ? { view: s, rearmed: [] } : settle(s, config, nowMs);
  const probe = ticket === undefined ? view.probes[0] : view.probes.find((p) => p.ticket === ticket);
  if (!probe) return { ignored: true, reason: ticket === undefined ? 'no_probe_in_flight' : 'ticket_not_in_flight', next: s, rearmed: [] };
  const probes = view.probes.filter((p) => p !== probe);
  if (!success) {
    const next: BreakerSnapshot = { ...view, state: 'open', openedAtMs: nowMs, probes: [], probeSuccesses: 0 };
    return { ignored: false, next, rearmed, transition: opened(config, nowMs, 'half_open', 'probe_failed', view.probeSuccesses + 1) };
  }
  const probeSuccesses = view.probeSuccesses + 1;
  if (probeSuccesses >= config.probeSuccessRequired) {
    const transition: StateTransition = {
      dependency: config.dependency,
      from: 'half_open',
      to: 'closed',
      requestCount: probeSuccesses,
      reason: 'probes_succeeded',
      atMs: nowMs,
    };
    return { ignored: false, next: closedAfresh(view), rearmed, transition };
  }
  return { ignored: false, next: { ...view, probes, probeSuccesses }, rearmed };
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
