import { describe, expect, it } from 'vitest';
import { CircuitBreaker } from '../../../src/durability/breaker/CircuitBreaker.js';
import { DEFAULT_DURABILITY_CONFIG } from '../../../src/durability/config/defaults.js';
import { CircuitOpenError, isDurabilityError } from '../../../src/durability/errors.js';
import { crashAndReopen } from '../../../src/core/storage.js';
import type { BreakerConfig } from '../../../src/durability/config/types.js';
import type { StateTransition } from '../../../src/durability/events.js';
import { bench, ofType, SECOND } from '../helpers.js';
import { thrownWords } from '../../support.js';

const MEMORY = DEFAULT_DURABILITY_CONFIG.circuitBreaker.dependencies.memory_service as BreakerConfig; // 0.5 / 10 / 30 s / 2
const MCP = DEFAULT_DURABILITY_CONFIG.circuitBreaker.dependencies.external_mcp_client as BreakerConfig; // 0.3 / 5 / 60 s / 1

function breaker(config: BreakerConfig = MEMORY) {
  const b = bench();
  const cb = new CircuitBreaker({ db: b.db, clock: b.clock, config, events: b.sink });
  const transitions: StateTransition[] = [];
  cb.onTransition((t) => transitions.push(t));
  /** Admit and report n calls with the same result, `gapMs` apart. */
  const calls = (n: number, success: boolean, gapMs = 0): void => {
    for (let i = 0; i < n; i += 1) {
      expect(cb.beforeCall().admitted).toBe(true);
      cb.afterCall(success);
      b.clock.advance(gapMs);
    }
  };
  return { ...b, cb, transitions, calls };
}

/** Open a breaker: enough failures to pass min_request_count. Returns the time it opened. */
function open(t: ReturnType<typeof breaker>): number {
  t.calls(t.cb.config.minRequestCount, false);
  expect(t.cb.state()).toBe('open');
  return t.clock.nowMs();
}

describe('closed: a count-based window, judged once it holds min_request_count results', () => {
  it('gives no verdict below min_request_count, even at 100% failures', () => {
    const t = breaker();
    t.calls(9, false);
    expect(t.cb.state()).toBe('closed');
  });

  it('opens when the rate is strictly above the threshold once the window is long enough', () => {
    const t = breaker();
    t.calls(4, true);
    t.calls(6, false);
    expect(t.cb.state()).toBe('open');
    expect(t.transitions).toEqual([
      { dependency: 'memory_service', from: 'closed', to: 'open', failureRate: 0.6, requestCount: 10, resetTimeoutSeconds: 30, reason: 'failure_rate', atMs: 0 },
    ]);
  });

  it('stays closed at a rate exactly equal to the threshold (0.5 is not > 0.5); one more failure opens it', () => {
    const t = breaker();
    t.calls(5, true);
    t.calls(5, false);
    expect(t.cb.state()).toBe('closed');
    t.calls(1, false);
    expect(t.cb.state()).toBe('open');
    expect(t.transitions[0]).toMatchObject({ failureRate: 6 / 11, requestCount: 11 });
  });

  it('slides: only the last window_size (20) results count', () => {
    const t = breaker();
    t.calls(20, true);
    t.calls(10, false); // window: 10 ok + 10 failed = 0.5
    expect(t.cb.state()).toBe('closed');
    expect(t.cb.snapshot().window).toHaveLength(20);
    t.calls(1, false); // 9 ok + 11 failed = 0.55
    expect(t.transitions[0]).toMatchObject({ failureRate: 0.55, requestCount: 20 });
  });

  it('reports each result with the failure rate into the trace', () => {
    const t = breaker();
    t.calls(1, false);
    t.calls(1, true);
    expect(ofType(t.events, 'breaker.result').map((e) => [e.success, e.failureRate, e.windowLength])).toEqual([
      [false, 1, 1],
      [true, 0.5, 2],
    ]);
  });
});

describe('failure_rate_threshold 1.0: opens only when every result in the window failed', () => {
  // "strictly greater" alone would make 1.0 a breaker that can never open: no rate exceeds 1.
  const TOTAL_OUTAGE: BreakerConfig = { ...MEMORY, failureRateThreshold: 1, minRequestCount: 5 };

  it('stays closed at 19 failures of 20 (0.95), and opens when the one success slides out (20 of 20)', () => {
    const t = breaker(TOTAL_OUTAGE);
    t.calls(1, true);
    t.calls(19, false);
    expect(t.cb.state()).toBe('closed');
    expect(t.cb.snapshot().window).toHaveLength(20);
    t.calls(1, false);
    expect(t.cb.state()).toBe('open');
    expect(t.transitions).toEqual([
      { dependency: 'memory_service', from: 'closed', to: 'open', failureRate: 1, requestCount: 20, resetTimeoutSeconds: 30, reason: 'failure_rate', atMs: 0 },
    ]);
  });

  it('opens at min_request_count failures in a row, and not one result earlier', () => {
    const t = breaker(TOTAL_OUTAGE);
    t.calls(4, false);
    expect(t.cb.state()).toBe('closed');
    t.calls(1, false);
    expect(t.cb.state()).toBe('open');
  });
});

describe('open: refuse until reset_timeout has elapsed; the first call after it is the first probe', () => {
  it('refuses with CircuitOpen, definite (the call never left), saying when it will probe', () => {
    const t = breaker();
    const openedAt = open(t);
    t.clock.advance(10 * SECOND);
    const admission = t.cb.beforeCall();
    expect(admission.admitted).toBe(false);
    if (admission.admitted) return;
    expect(admission.error).toBeInstanceOf(CircuitOpenError);
    expect(isDurabilityError(admission.error, 'CIRCUIT_OPEN')).toBe(true);
    expect(admission.error).toMatchObject({ definite: true, state: 'open', retryAfterMs: openedAt + 30 * SECOND - t.clock.nowMs() });
    expect(ofType(t.events, 'breaker.rejected')).toHaveLength(1);
  });

  it('still refuses 1 ms before the reset timeout, and admits a probe exactly at it', () => {
    const t = breaker();
    const openedAt = open(t);
    t.clock.advanceTo(openedAt + 30 * SECOND - 1);
    expect(t.cb.beforeCall().admitted).toBe(false);
    t.clock.advance(1);
    expect(t.cb.beforeCall()).toEqual({ admitted: true, probe: true, ticket: 11 });
    expect(t.transitions[1]).toEqual({
      dependency: 'memory_service',
      from: 'open',
      to: 'half_open',
      requestCount: 0,
      reason: 'reset_timeout_elapsed',
      atMs: openedAt + 30 * SECOND,
    });
  });

  it('ignores a late report while open (no probe is in flight)', () => {
    const t = breaker();
    open(t);
    expect(t.cb.afterCall(true)).toBe(false);
    expect(t.cb.state()).toBe('open');
    expect(ofType(t.events, 'breaker.report_ignored')).toHaveLength(1);
  });
});

describe('state() and snapshot() say what a call made now would meet, without writing', () => {
  it('reads open until the reset timeout, then half_open with no probe in flight — and fires nothing until a call comes', () => {
    const t = breaker();
    const openedAt = open(t);
    t.clock.advanceTo(openedAt + 30 * SECOND - 1);
    expect(t.cb.state()).toBe('open');
    t.clock.advance(1);
    expect(t.cb.state()).toBe('half_open');
    expect(t.cb.snapshot()).toMatchObject({ state: 'half_open', probes: [], probeSuccesses: 0 });
    expect(t.transitions.map((x) => `${x.from}→${x.to}`)).toEqual(['closed→open']); // reading wrote nothing
    t.clock.advance(5 * SECOND);
    expect(t.cb.beforeCall()).toMatchObject({ admitted: true, probe: true });
    expect(t.transitions[1]).toMatchObject({ from: 'open', to: 'half_open', atMs: openedAt + 35 * SECOND });
  });

  it('reads a probe past probe_timeout_seconds as re-armed: its slot is free', () => {
    const t = breaker(MCP); // one probe slot
    t.clock.advance(open(t) + 60 * SECOND);
    const probeAt = t.clock.nowMs();
    t.cb.beforeCall();
    expect(t.cb.snapshot().probes).toHaveLength(1);
    t.clock.advanceTo(probeAt + 30 * SECOND);
    expect(t.cb.snapshot().probes).toEqual([]);
    expect(ofType(t.events, 'breaker.probe_rearmed')).toEqual([]); // announced by the call that reuses the slot
  });

  it('a reopened breaker reads the same', () => {
    const t = breaker();
    const openedAt = open(t);
    t.clock.advanceTo(openedAt + 30 * SECOND);
    const again = new CircuitBreaker({ db: crashAndReopen(t.db), clock: t.clock, config: MEMORY });
    expect(again.state()).toBe('half_open');
  });
});

describe('half-open: at most probe_success_required probes; that many successes close, one failure reopens', () => {
  it('counts the transition call as the first probe: with 2 slots, a third concurrent call is refused (ghost-probe fix)', () => {
    const t = breaker();
    t.clock.advance(open(t) + 30 * SECOND);
    expect(t.cb.beforeCall()).toEqual({ admitted: true, probe: true, ticket: 11 }); // probe 1: the transition call
    expect(t.cb.beforeCall()).toEqual({ admitted: true, probe: true, ticket: 12 }); // probe 2
    const third = t.cb.beforeCall(); // the original's ghost probe would have been admitted here
    expect(third.admitted).toBe(false);
    if (!third.admitted) expect(third.error.state).toBe('half_open');
    expect(t.cb.snapshot().probes).toHaveLength(2);
    expect(ofType(t.events, 'breaker.probe_admitted').map((e) => [e.inFlight, e.slots])).toEqual([
      [1, 2],
      [2, 2],
    ]);
  });

  it('closes after probe_success_required successes, with an empty window', () => {
    const t = breaker();
    t.clock.advance(open(t) + 30 * SECOND);
    t.cb.beforeCall();
    t.cb.beforeCall();
    t.cb.afterCall(true);
    expect(t.cb.state()).toBe('half_open');
    t.cb.afterCall(true);
    expect(t.cb.state()).toBe('closed');
    expect(t.cb.snapshot().window).toEqual([]);
    expect(t.transitions.map((x) => `${x.from}→${x.to}`)).toEqual(['closed→open', 'open→half_open', 'half_open→closed']);
    expect(t.transitions[2]).toMatchObject({ requestCount: 2, reason: 'probes_succeeded' });
  });

  it('reopens on one failed probe, and the reset timeout starts again from then', () => {
    const t = breaker();
    t.clock.advance(open(t) + 30 * SECOND);
    t.cb.beforeCall();
    t.clock.advance(500);
    t.cb.afterCall(false);
    const reopenedAt = t.clock.nowMs();
    expect(t.transitions[2]).toEqual({
      dependency: 'memory_service',
      from: 'half_open',
      to: 'open',
      requestCount: 1,
      resetTimeoutSeconds: 30,
      reason: 'probe_failed',
      atMs: reopenedAt,
    });
    t.clock.advanceTo(reopenedAt + 30 * SECOND - 1);
    expect(t.cb.beforeCall().admitted).toBe(false);
    t.clock.advance(1);
    expect(t.cb.beforeCall().admitted).toBe(true);
  });

  it('re-arms a probe never reported once probe_timeout_seconds have passed (the original wedged)', () => {
    const t = breaker(MCP); // one probe slot
    t.clock.advance(open(t) + 60 * SECOND);
    const probeAt = t.clock.nowMs();
    expect(t.cb.beforeCall().admitted).toBe(true); // this probe never reports
    t.clock.advanceTo(probeAt + 30 * SECOND - 1);
    expect(t.cb.beforeCall().admitted).toBe(false);
    t.clock.advance(1);
    expect(t.cb.beforeCall()).toEqual({ admitted: true, probe: true, ticket: 7 });
    expect(ofType(t.events, 'breaker.probe_rearmed')).toEqual([
      { type: 'breaker.probe_rearmed', atMs: probeAt + 30 * SECOND, dependency: 'external_mcp_client', ticket: 6, startedAtMs: probeAt },
    ]);
    t.cb.afterCall(true);
    expect(t.cb.state()).toBe('closed');
  });

  it('ignores a report when no probe is in flight', () => {
    const t = breaker();
    t.clock.advance(open(t) + 30 * SECOND);
    t.cb.beforeCall(); // the only probe
    t.cb.afterCall(true); // 1 of 2 successes, nothing in flight now
    expect(t.cb.afterCall(false)).toBe(false);
    expect(t.cb.state()).toBe('half_open');
    expect(t.cb.snapshot().probeSuccesses).toBe(1);
  });
});

describe('forceClose and upsertConfig (ours / hot reload)', () => {
  it('forceClose fires a transition like any other', () => {
    const t = breaker();
    open(t);
    t.cb.forceClose();
    expect(t.cb.state()).toBe('closed');
    expect(t.transitions[1]).toEqual({ dependency: 'memory_service', from: 'open', to: 'closed', requestCount: 10, reason: 'forced', atMs: 0 });
    t.cb.forceClose();
    expect(t.transitions).toHaveLength(2); // closing a closed breaker is no transition
  });

  it('updateConfig keeps the runtime state and applies the new threshold to the next result', () => {
    const t = breaker();
    t.calls(5, true);
    t.calls(4, false);
    t.cb.updateConfig({ ...MEMORY, minRequestCount: 5, failureRateThreshold: 0.4 });
    expect(t.cb.snapshot().window).toHaveLength(9);
    t.calls(1, true); // 4 of 10 failed = 0.4: not above 0.4
    expect(t.cb.state()).toBe('closed');
    t.calls(1, false); // 5 of 11
    expect(t.cb.state()).toBe('open');
  });

  it('updateConfig rejects an invalid config and keeps the old one', () => {
    const t = breaker();
    expect(thrownWords(() => t.cb.updateConfig({ ...MEMORY, minRequestCount: 21 }))).toMatch(/min_request_count must be an integer in \[1, window_size = 20\]/);
    expect(t.cb.config).toEqual(MEMORY);
  });

  it('stops telling a subscriber once it unsubscribes', () => {
    const t = breaker();
    const heard: string[] = [];
    const off = t.cb.onTransition((x) => heard.push(x.to));
    off();
    open(t);
    expect(heard).toEqual([]);
    expect(t.transitions).toHaveLength(1);
  });
});

describe('a crash loses nothing committed', () => {
  it('a reopened breaker is still open, and probes on the original schedule', () => {
    const t = breaker();
    const openedAt = open(t);
    const db = crashAndReopen(t.db);
    const again = new CircuitBreaker({ db, clock: t.clock, config: MEMORY });
    expect(again.state()).toBe('open');
    t.clock.advanceTo(openedAt + 30 * SECOND - 1);
    expect(again.beforeCall().admitted).toBe(false);
    t.clock.advance(1);
    expect(again.beforeCall()).toEqual({ admitted: true, probe: true, ticket: 11 });
  });
});

describe('tickets: each admitted call has its own, and a report with a ticket counts only for that call', () => {
  it('numbers admitted calls 1, 2, 3 …; a refused call takes no ticket', () => {
    const t = breaker(MCP);
    const tickets: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const a = t.cb.beforeCall();
      if (a.admitted) tickets.push(a.ticket);
      t.cb.afterCall(false);
    }
    expect(t.cb.beforeCall().admitted).toBe(false); // open: refused, no ticket
    t.clock.advance(60 * SECOND);
    expect(t.cb.beforeCall()).toEqual({ admitted: true, probe: true, ticket: 6 });
    expect(tickets).toEqual([1, 2, 3, 4, 5]);
    expect(ofType(t.events, 'breaker.probe_admitted')).toEqual([
      { type: 'breaker.probe_admitted', atMs: 60 * SECOND, dependency: 'external_mcp_client', ticket: 6, inFlight: 1, slots: 1 },
    ]);
  });

  it('ignores a stray SUCCESS from a re-armed probe: it does not close the breaker; the live probe does', () => {
    const t = breaker(MCP); // one probe slot, probe timeout 30 s
    t.clock.advance(open(t) + 60 * SECOND);
    const stray = t.cb.beforeCall(); // its caller stalls past the probe timeout
    t.clock.advance(30 * SECOND);
    const live = t.cb.beforeCall(); // the slot was re-armed: a new probe
    if (!stray.admitted || !live.admitted) throw new Error('both probes should be admitted');
    expect(ofType(t.events, 'breaker.probe_rearmed')).toEqual([
      { type: 'breaker.probe_rearmed', atMs: t.clock.nowMs(), dependency: 'external_mcp_client', ticket: stray.ticket, startedAtMs: t.clock.nowMs() - 30 * SECOND },
    ]);
    expect(t.cb.afterCall(true, stray.ticket)).toBe(false); // before tickets this closed the breaker
    expect(t.cb.state()).toBe('half_open');
    expect(ofType(t.events, 'breaker.report_ignored')).toEqual([
      { type: 'breaker.report_ignored', atMs: t.clock.nowMs(), dependency: 'external_mcp_client', state: 'half_open', success: true, ticket: stray.ticket, reason: 'ticket_not_in_flight' },
    ]);
    expect(t.cb.afterCall(true, live.ticket)).toBe(true);
    expect(t.cb.state()).toBe('closed');
  });

  it('ignores a stray FAILURE from a re-armed probe: it does not reopen the breaker', () => {
    const t = breaker(MCP);
    t.clock.advance(open(t) + 60 * SECOND);
    const stray = t.cb.beforeCall();
    t.clock.advance(30 * SECOND);
    const live = t.cb.beforeCall();
    if (!stray.admitted || !live.admitted) throw new Error('both probes should be admitted');
    expect(t.cb.afterCall(false, stray.ticket)).toBe(false);
    expect(t.cb.state()).toBe('half_open');
    expect(t.cb.snapshot().probes.map((p) => p.ticket)).toEqual([live.ticket]);
  });

  it('ignores a probe that reports at its timeout, even before any call re-armed its slot', () => {
    const t = breaker(MCP);
    t.clock.advance(open(t) + 60 * SECOND);
    const probe = t.cb.beforeCall();
    if (!probe.admitted) throw new Error('probe should be admitted');
    t.clock.advance(30 * SECOND);
    expect(t.cb.afterCall(true, probe.ticket)).toBe(false);
    expect(t.cb.state()).toBe('half_open');
  });

  it('counts the right probe when two are in flight and the second reports first', () => {
    const t = breaker(); // two probe slots
    t.clock.advance(open(t) + 30 * SECOND);
    const first = t.cb.beforeCall();
    const second = t.cb.beforeCall();
    if (!first.admitted || !second.admitted) throw new Error('both probes should be admitted');
    expect(t.cb.afterCall(true, second.ticket)).toBe(true);
    expect(t.cb.snapshot().probes.map((p) => p.ticket)).toEqual([first.ticket]);
    expect(t.cb.afterCall(true, second.ticket)).toBe(false); // reported twice: the second is ignored
    expect(t.cb.afterCall(true, first.ticket)).toBe(true);
    expect(t.cb.state()).toBe('closed');
  });

  it('ignores a ticket never issued, and a closed-state call that reports after the breaker opened and closed again', () => {
    const t = breaker(MCP);
    const old = t.cb.beforeCall(); // ticket 1, held while the dependency dies
    if (!old.admitted) throw new Error('admitted');
    t.calls(5, false);
    t.clock.advance(60 * SECOND);
    const probe = t.cb.beforeCall();
    if (!probe.admitted) throw new Error('admitted');
    t.cb.afterCall(true, probe.ticket);
    expect(t.cb.state()).toBe('closed');
    expect(t.cb.afterCall(false, old.ticket)).toBe(false); // from the earlier closed period: not this window's
    expect(t.cb.afterCall(false, 99)).toBe(false);
    expect(t.cb.snapshot().window).toEqual([]);
    const now = t.cb.beforeCall();
    if (!now.admitted) throw new Error('admitted');
    expect(t.cb.afterCall(false, now.ticket)).toBe(true);
    expect(t.cb.snapshot().window).toEqual([true]);
  });

  it('without a ticket, keeps the old rule: a half-open report counts for the oldest live probe', () => {
    const t = breaker();
    t.clock.advance(open(t) + 30 * SECOND);
    const first = t.cb.beforeCall();
    t.cb.beforeCall();
    if (!first.admitted) throw new Error('admitted');
    expect(t.cb.afterCall(true)).toBe(true);
    expect(t.cb.afterCall(true, first.ticket)).toBe(false); // its slot was the one the ticketless report took
  });

  it('keeps the ticket sequence and the probes in flight across a crash (the row is the breaker)', () => {
    const t = breaker(MCP);
    t.clock.advance(open(t) + 60 * SECOND);
    const probe = t.cb.beforeCall();
    if (!probe.admitted) throw new Error('admitted');
    const again = new CircuitBreaker({ db: crashAndReopen(t.db), clock: t.clock, config: MCP });
    expect(again.snapshot().probes).toEqual([{ ticket: probe.ticket, startedAtMs: t.clock.nowMs() }]);
    t.clock.advance(30 * SECOND);
    expect(again.beforeCall()).toEqual({ admitted: true, probe: true, ticket: probe.ticket + 1 }); // never reissued
    expect(again.afterCall(true, probe.ticket)).toBe(false);
    expect(again.state()).toBe('half_open');
  });
});
