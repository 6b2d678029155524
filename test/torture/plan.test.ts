/**
 * The torture's plan comes from the seed alone (docs/spec.md §19): the same seed deals the same signals to the same
 * workers after the same gaps; where each lands is real time, which no plan can fix.
 */
import { describe, expect, it } from 'vitest';
import { GAP_MS, PAUSE_LEASES, planDigest, planTorture } from '../../src/torture/plan.js';

const shape = { workers: 4, kills: 1000, pauses: 500, leaseMs: 40 };

describe('the plan of a torture run', () => {
  it('is the same for the same seed, to the digest, and another for another seed', () => {
    expect(planTorture(42, shape)).toEqual(planTorture(42, shape));
    expect(planDigest(planTorture(42, shape))).toBe(planDigest(planTorture(42, shape)));
    expect(planDigest(planTorture(43, shape))).not.toBe(planDigest(planTorture(42, shape)));
  });

  it('deals exactly the kills and pauses asked, to every worker, pauses spread over the whole run', () => {
    const plan = planTorture(7, shape);
    expect(plan.filter((s) => s.signal === 'SIGKILL')).toHaveLength(1000);
    expect(plan.filter((s) => s.signal === 'SIGSTOP')).toHaveLength(500);
    expect(new Set(plan.map((s) => s.worker))).toEqual(new Set([0, 1, 2, 3]));
    const firstHalf = plan.slice(0, 750).filter((s) => s.signal === 'SIGSTOP').length;
    expect(firstHalf).toBeGreaterThan(150);
    expect(firstHalf).toBeLessThan(350);
  });

  it('keeps every gap and every pause within its bounds', () => {
    const plan = planTorture(7, shape);
    for (const s of plan) {
      expect(s.afterMs).toBeGreaterThanOrEqual(GAP_MS.min);
      expect(s.afterMs).toBeLessThanOrEqual(GAP_MS.max);
      if (s.signal === 'SIGKILL') expect(s.pauseMs).toBeUndefined();
      else {
        expect(s.pauseMs).toBeGreaterThanOrEqual(shape.leaseMs * PAUSE_LEASES.min);
        expect(s.pauseMs).toBeLessThanOrEqual(shape.leaseMs * PAUSE_LEASES.max);
      }
    }
  });
});
