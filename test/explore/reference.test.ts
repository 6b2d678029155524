/**
 * The reference runner keeps every invariant under every added fault and every pair of them, on all 17
 * scenarios. Depth 2 is ~13,600 runs: in memory, on worker threads (one per core).
 *
 * The tallies are pinned figure by figure, as the explorer counted them before it forked schedules and
 * kept its connections (issue 13): exploring faster must explore exactly the same — the same schedules,
 * the same faults fired and pre-empted, the same endings.
 */
import { describe, expect, it } from 'vitest';
import { explore, type Exploration } from '../../src/explore/explore.js';
import { seventeen } from './helpers.js';

/** Per scenario: schedules run (the scenario as written included) and how many different endings they had. */
const perScenario = (exploration: Exploration) => Object.fromEntries(exploration.scenarios.map(({ scenario, tally }) => [scenario.id, [tally.total, tally.outcomes.size]]));

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

  it('counts depth 1 exactly as it always has: faults planned, fired, past the end, pre-empted, and the endings of each scenario', async () => {
    const exploration = await explore(seventeen(), { depth: 1, workers: 1 });
    const { total } = exploration;
    expect(total.planned).toEqual({ concurrent_reserve: 102, transient: 102, crash_before_commit: 102, duplicate_delivery: 102, crash_after_commit: 102, lost_reply: 102, crash_after_event: 222 });
    expect(total.fired).toEqual({ concurrent_reserve: 68, transient: 63, crash_before_commit: 56, duplicate_delivery: 63, crash_after_commit: 57, lost_reply: 54, crash_after_event: 221 });
    expect(total.unreached).toEqual({ concurrent_reserve: 34, transient: 34, crash_before_commit: 34, duplicate_delivery: 34, crash_after_commit: 34, lost_reply: 34, crash_after_event: 0 });
    expect(total.ownPreempted).toBe(35);
    expect(total.outcomes.size).toBe(35);
    expect(perScenario(exploration)).toEqual({
      happy_path: [51, 4], read_only: [33, 3], transient_read: [59, 4], transient_read_exhausted: [48, 4], lost_reply: [59, 4],
      lost_reply_no_retry: [50, 9], crash_after_commit: [58, 4], crash_before_commit: [58, 5], crash_after_prepared: [51, 4],
      payload_conflict: [59, 4], stale_version: [50, 4], retry_after_version_moved: [59, 6], insufficient_stock: [50, 3],
      unknown_item: [41, 3], budget_exhausted: [50, 2], policy_error: [33, 3], unauthorized_action: [42, 3],
    });
  });

  it('finds no violation at depth 2 on the 17 scenarios, every pair of faults that can both fire', async () => {
    const exploration = await explore(seventeen(), { depth: 2 });
    const { total } = exploration;
    expect(total.runs[0]).toBe(17);
    expect(total.runs[1]).toBe(834);
    expect(total.runs[2]).toBe(12_753);
    expect([...total.violations.keys()]).toEqual([]);
    // Pinned as depth 2 always counted them (see the file's header).
    expect(total.planned).toEqual({ concurrent_reserve: 2772, transient: 3086, crash_before_commit: 3029, duplicate_delivery: 2718, crash_after_commit: 3048, lost_reply: 2997, crash_after_event: 8690 });
    expect(total.fired).toEqual({ concurrent_reserve: 2738, transient: 2978, crash_before_commit: 2586, duplicate_delivery: 2500, crash_after_commit: 2611, lost_reply: 2416, crash_after_event: 8661 });
    expect(total.ownPreempted).toBe(1191);
    expect(total.outcomes.size).toBe(61);
    expect(perScenario(exploration)).toEqual({
      happy_path: [877, 9], read_only: [285, 6], transient_read: [1060, 10], transient_read_exhausted: [515, 10], lost_reply: [1178, 10],
      lost_reply_no_retry: [670, 20], crash_after_commit: [1128, 10], crash_before_commit: [1127, 13], crash_after_prepared: [868, 9],
      payload_conflict: [1211, 8], stale_version: [812, 9], retry_after_version_moved: [1175, 14], insufficient_stock: [811, 6],
      unknown_item: [494, 6], budget_exhausted: [567, 4], policy_error: [285, 6], unauthorized_action: [541, 6],
    });
  }, 300_000);

  it('gives the same tally on worker threads as in one thread', async () => {
    const scenarios = seventeen().slice(4, 8);
    const one = await explore(scenarios, { depth: 1, workers: 1 });
    const two = await explore(scenarios, { depth: 1, workers: 2 });
    expect(two.total.toData()).toEqual(one.total.toData());
  }, 60_000);
});
