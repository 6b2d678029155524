import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { backoffDelay, cappedDelayMs } from '../../../src/durability/retry/backoff.js';
import { SeededRng } from '../../../src/core/rng.js';
import type { JitterStrategy } from '../../../src/durability/config/types.js';

const MCP = { initialDelayMs: 500, maxDelayMs: 10_000, multiplier: 2 };

function delays(strategy: JitterStrategy, seed: number, failures: number, policy = MCP): { delayMs: number; cappedMs: number }[] {
  const rng = new SeededRng(seed);
  const out: { delayMs: number; cappedMs: number }[] = [];
  let previousDelayMs: number | undefined;
  for (let a = 0; a < failures; a += 1) {
    const d = backoffDelay({ strategy, ...policy, failedAttemptIndex: a, ...(previousDelayMs === undefined ? {} : { previousDelayMs }) }, rng);
    out.push(d);
    previousDelayMs = d.delayMs;
  }
  return out;
}

describe('capped = min(initial × multiplier^a, max)', () => {
  it('doubles from the initial delay and stops at the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((a) => cappedDelayMs(500, 10_000, 2, a))).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
    expect([0, 1, 2, 3, 4, 5].map((a) => cappedDelayMs(200, 5_000, 2, a))).toEqual([200, 400, 800, 1600, 3200, 5000]);
  });

  it('does not overflow for a large attempt index', () => {
    expect(cappedDelayMs(500, 10_000, 2, 5_000)).toBe(10_000);
  });
});

describe('jitter strategies', () => {
  it('none: mcp_call waits exactly 500 then 1000 ms', () => {
    expect(delays('none', 42, 2).map((d) => d.delayMs)).toEqual([500, 1000]);
  });

  it('additive30 (the seed): every delay is in [capped, 1.3 × capped)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 12 }), (seed, failures) => {
        for (const { delayMs, cappedMs } of delays('additive30', seed, failures)) {
          expect(delayMs).toBeGreaterThanOrEqual(cappedMs);
          expect(delayMs).toBeLessThan(1.3 * cappedMs);
        }
      }),
    );
  });

  it('additive30 can exceed max_delay_ms, by less than 30%', () => {
    const late = delays('additive30', 7, 10).slice(5);
    expect(late.every((d) => d.cappedMs === 10_000 && d.delayMs < 13_000)).toBe(true);
    expect(late.some((d) => d.delayMs > 10_000)).toBe(true);
  });

  it('full: every delay is in [0, capped)', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        for (const { delayMs, cappedMs } of delays('full', seed, 8)) expect(delayMs >= 0 && delayMs < cappedMs).toBe(true);
      }),
    );
  });

  it('equal: every delay is in [capped/2, capped)', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        for (const { delayMs, cappedMs } of delays('equal', seed, 8)) expect(delayMs >= cappedMs / 2 && delayMs < cappedMs).toBe(true);
      }),
    );
  });

  it('decorrelated: each delay is in [initial, 3 × previous), never above max', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        let previous = MCP.initialDelayMs;
        for (const { delayMs } of delays('decorrelated', seed, 10)) {
          expect(delayMs).toBeGreaterThanOrEqual(MCP.initialDelayMs);
          expect(delayMs).toBeLessThanOrEqual(MCP.maxDelayMs);
          expect(delayMs).toBeLessThan(Math.max(3 * previous, MCP.initialDelayMs + 1));
          previous = delayMs;
        }
      }),
    );
  });

  it('gives the same delays for the same seed, and different ones for another seed', () => {
    for (const strategy of ['additive30', 'full', 'equal', 'decorrelated'] as const) {
      expect(delays(strategy, 42, 6)).toEqual(delays(strategy, 42, 6));
      expect(delays(strategy, 42, 6)).not.toEqual(delays(strategy, 43, 6));
    }
  });
});
