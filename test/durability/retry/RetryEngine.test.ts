import { describe, expect, it } from 'vitest';
import { RetryEngine, fail, succeed, type AttemptResult } from '../../../src/durability/retry/RetryEngine.js';
import { DEFAULT_DURABILITY_CONFIG } from '../../../src/durability/config/defaults.js';
import { PolicyValidationError } from '../../../src/durability/errors.js';
import { SeededRng } from '../../../src/core/rng.js';
import type { RetryPolicy } from '../../../src/durability/config/types.js';
import { bench, ofType } from '../helpers.js';

const MCP = DEFAULT_DURABILITY_CONFIG.retry.policies.mcp_call as RetryPolicy;

function engine(policies?: Record<string, RetryPolicy>) {
  const b = bench();
  return { ...b, engine: new RetryEngine({ clock: b.clock, rng: new SeededRng(42), events: b.sink, ...(policies ? { policies } : {}) }) };
}

/** A dependency that answers from a script, one entry per attempt, and remembers when it was called. */
function scripted(script: AttemptResult<string>[], clock: { nowMs(): number }) {
  const calledAtMs: number[] = [];
  return {
    calledAtMs,
    call: (): AttemptResult<string> => {
      calledAtMs.push(clock.nowMs());
      return script[calledAtMs.length - 1] ?? succeed('ok');
    },
  };
}

const timeout = fail('NETWORK_TIMEOUT', 'no reply in 5 s', false);

describe('execute: redelivery on the virtual clock', () => {
  it('returns at once on a first-attempt success: 1 attempt, no delay, the clock unmoved', () => {
    const { engine: e, clock } = engine();
    const outcome = e.execute('mcp_call', () => succeed('r-1'));
    expect(outcome).toEqual({ success: true, result: 'r-1', attempts: 1, sentToDlq: false, delaysMs: [], policyUsed: 'mcp_call' });
    expect(clock.nowMs()).toBe(0);
  });

  it('waits the backoff delay on the virtual clock, then succeeds on the second attempt', () => {
    const { engine: e, clock } = engine();
    const dep = scripted([timeout], clock);
    const outcome = e.execute('mcp_call', dep.call);
    expect(outcome.success).toBe(true);
    expect(outcome.attempts).toBe(2);
    expect(outcome.delaysMs).toHaveLength(1);
    expect(dep.calledAtMs).toEqual([0, outcome.delaysMs[0]]);
    expect(clock.nowMs()).toBe(outcome.delaysMs[0]);
  });

  it('spends all max_attempts on transient failures, sleeps between them but not after the last, and sends to the DLQ', () => {
    const { engine: e, clock, events } = engine();
    const dep = scripted([timeout, timeout, timeout], clock);
    const outcome = e.execute('mcp_call', dep.call);
    expect(outcome).toMatchObject({ success: false, attempts: 3, sentToDlq: true, finalError: { code: 'NETWORK_TIMEOUT', definite: false } });
    expect(outcome.delaysMs).toHaveLength(2);
    expect(clock.nowMs()).toBe((outcome.delaysMs[0] ?? 0) + (outcome.delaysMs[1] ?? 0));
    expect(ofType(events, 'retry.gave_up')).toEqual([
      { type: 'retry.gave_up', atMs: clock.nowMs(), operationType: 'mcp_call', reason: 'exhausted', attempts: 3, sentToDlq: true },
    ]);
  });

  it('with jitter off waits exactly 500 then 1000 ms for mcp_call', () => {
    const { engine: e, clock, events } = engine({ mcp_call: { ...MCP, jitter: 'none' } });
    const outcome = e.execute('mcp_call', scripted([timeout, timeout, timeout], clock).call);
    expect(outcome.delaysMs).toEqual([500, 1000]);
    expect(ofType(events, 'retry.backoff').map((b) => [b.atMs, b.afterAttempt, b.delayMs])).toEqual([
      [0, 1, 500],
      [500, 2, 1000],
    ]);
  });

  it('stops at once on a non-retryable error: 1 attempt, no delay, not for the DLQ', () => {
    const { engine: e, clock } = engine();
    const outcome = e.execute('mcp_call', scripted([fail('PERMISSION_DENIED', 'no')], clock).call);
    expect(outcome).toMatchObject({ success: false, attempts: 1, sentToDlq: false, delaysMs: [], finalError: { code: 'PERMISSION_DENIED' } });
    expect(clock.nowMs()).toBe(0);
  });

  it('stops on a retryable failure followed by a non-retryable one, not for the DLQ', () => {
    const { engine: e, clock } = engine();
    const outcome = e.execute('mcp_call', scripted([timeout, fail('NOT_FOUND', 'gone')], clock).call);
    expect(outcome).toMatchObject({ attempts: 2, sentToDlq: false, finalError: { code: 'NOT_FOUND' } });
  });
});

describe('an operation type without a policy uses the "*" fallback (ours)', () => {
  it('makes one attempt and sends a transient failure to the DLQ', () => {
    const { engine: e, clock, events } = engine();
    const dep = scripted([timeout, timeout], clock);
    const outcome = e.execute('calendar_sync', dep.call);
    expect(outcome).toMatchObject({ success: false, attempts: 1, sentToDlq: true, policyUsed: '*', delaysMs: [] });
    expect(dep.calledAtMs).toHaveLength(1);
    expect(ofType(events, 'retry.fallback_policy')).toEqual([{ type: 'retry.fallback_policy', atMs: 0, operationType: 'calendar_sync' }]);
  });

  it('still classifies: a refusal is not sent to the DLQ', () => {
    const { engine: e } = engine();
    expect(e.execute('calendar_sync', () => fail('PERMISSION_DENIED', 'no'))).toMatchObject({ attempts: 1, sentToDlq: false });
  });
});

describe('upsertPolicy: hot reload validates first', () => {
  it('replaces a policy with a valid one', () => {
    const { engine: e } = engine();
    e.upsertPolicy({ ...MCP, maxAttempts: 5 });
    expect(e.policyFor('mcp_call').maxAttempts).toBe(5);
  });

  it('keeps the old policy when the update is invalid', () => {
    const { engine: e } = engine();
    expect(() => e.upsertPolicy({ ...MCP, maxAttempts: 0 })).toThrow(PolicyValidationError);
    expect(e.policyFor('mcp_call')).toEqual(MCP);
  });

  it('adds a policy for a new operation type, which then no longer falls back', () => {
    const { engine: e } = engine();
    expect(e.hasPolicy('calendar_sync')).toBe(false);
    e.upsertPolicy({ ...MCP, operationType: 'calendar_sync' });
    expect(e.execute('calendar_sync', () => fail('NETWORK_TIMEOUT', 'x', false)).attempts).toBe(3);
  });
});
