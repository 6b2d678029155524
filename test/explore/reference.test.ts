/**
 * The reference runner keeps every invariant under every added fault and every pair of them, on all 17
 * scenarios. Depth 2 is ~13,600 runs: in memory, on worker threads (one per core).
 */
import { describe, expect, it } from 'vitest';
import { explore } from '../../src/explore/explore.js';
import { seventeen } from './helpers.js';

describe('exploring the reference runner', () => {
  it('finds no violation at depth 1 on the 17 scenarios (834 schedules, as the Python baseline counts them)', async () => {
    const { total, scenarios } = await explore(seventeen(), { depth: 1, workers: 1 });
    expect(total.runs).toEqual([17, 834, 0]);
    expect([...total.violations.keys()]).toEqual([]);
    expect(scenarios.map((s) => s.tally.violations.size)).toEqual(new Array(17).fill(0));
    // Every kind fired somewhere, and what did not fire is accounted for.
    for (const kind of Object.keys(total.planned) as Array<keyof typeof total.planned>) expect(total.fired[kind]).toBeGreaterThan(0);
    expect(total.unreached.transient).toBe(17 * 2);
  });

  it('finds no violation at depth 2 on the 17 scenarios, every pair of faults that can both fire', async () => {
    const { total } = await explore(seventeen(), { depth: 2 });
    expect(total.runs[0]).toBe(17);
    expect(total.runs[1]).toBe(834);
    expect(total.runs[2]).toBe(12_753);
    expect([...total.violations.keys()]).toEqual([]);
  }, 300_000);

  it('gives the same tally on worker threads as in one thread', async () => {
    const scenarios = seventeen().slice(4, 8);
    const one = await explore(scenarios, { depth: 1, workers: 1 });
    const two = await explore(scenarios, { depth: 1, workers: 2 });
    expect(two.total.toData()).toEqual(one.total.toData());
  }, 60_000);
});
