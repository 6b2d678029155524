/** Which schedules the explorer runs, counted exactly on the happy path, and what fired of them. */
import { describe, expect, it } from 'vitest';
import { depthOneSchedules, secondFaults } from '../../src/explore/enumerate.js';
import { explore } from '../../src/explore/explore.js';
import { runWith } from '../../src/explore/runSchedule.js';
import { scheduleKey } from '../../src/explore/schedule.js';
import { reach, timeline } from '../../src/explore/timeline.js';
import { byId, reference } from './helpers.js';

describe('depth 1', () => {
  it('adds every attempt fault at calls 1..last+2 and a crash after every persisted event of the scenario as written', async () => {
    const base = await runWith(byId('happy_path'), [], reference);
    expect(reach(base)).toEqual({ calls: 4, events: 14 }); // started + 4 × (prepared, attempt_started, observed) + succeeded
    const schedules = depthOneSchedules(base);
    expect(schedules).toHaveLength(6 * 6 + 14);
    expect(schedules[0]).toEqual([{ kind: 'concurrent_reserve', at: { call: 1 } }]);
    expect(schedules.at(-1)).toEqual([{ kind: 'crash_after_event', at: { seq: 14 } }]);
    expect(new Set(schedules.map(scheduleKey)).size).toBe(schedules.length);
  });

  it('counts coverage exactly: on the happy path every fault at calls 1-4 and every event crash fires; calls 5-6 never do', async () => {
    const { scenarios, total } = await explore([byId('happy_path')], { workers: 1 });
    const tally = scenarios[0]!.tally;
    expect(tally.runs).toEqual([1, 50, 0]);
    expect(total.planned).toEqual({
      concurrent_reserve: 6, transient: 6, crash_before_commit: 6, duplicate_delivery: 6, crash_after_commit: 6, lost_reply: 6, crash_after_event: 14,
    });
    expect(total.fired).toEqual({
      concurrent_reserve: 4, transient: 4, crash_before_commit: 4, duplicate_delivery: 4, crash_after_commit: 4, lost_reply: 4, crash_after_event: 14,
    });
    expect(total.unreached).toEqual({
      concurrent_reserve: 2, transient: 2, crash_before_commit: 2, duplicate_delivery: 2, crash_after_commit: 2, lost_reply: 2, crash_after_event: 0,
    });
    expect(tally.ownPreempted).toBe(0);
    expect(tally.violations.size).toBe(0);
  });

  it('reports an added fault pre-empted at its attempt as not fired: transient_read already fails read_doc attempt 1 (call 2)', async () => {
    const { total } = await explore([byId('transient_read')], { workers: 1 });
    // transient at call 2 coincides with the scenario's own transient: only one of them can take effect (the
    // scenario's own, first in the plan); crash_before_commit, duplicate_delivery, crash_after_commit and lost_reply
    // at call 2 are pre-empted by it (the request never reaches the tool). concurrent_reserve still happens.
    const preempted = (kind: keyof typeof total.planned) => total.planned[kind] - total.fired[kind] - total.unreached[kind];
    expect(preempted('concurrent_reserve')).toBe(0);
    expect(preempted('transient')).toBe(1);
    expect(preempted('lost_reply')).toBe(1);
    expect(preempted('crash_after_commit')).toBe(1);
  });
});

describe('depth 2', () => {
  it('adds a second fault only at or after the point where the first one fired, each pair once', async () => {
    const scenario = byId('lost_reply');
    const first = { kind: 'crash_after_commit' as const, at: { call: 3 } };
    const run = await runWith(scenario, [first], reference);
    const seconds = secondFaults(run, first, scenario.faults.length);
    // Nothing before call 3; at call 3 itself only the kinds docs/spec.md §5 applies after crash_after_commit.
    expect(seconds.filter((f) => f.at.call !== undefined && f.at.call < 3)).toEqual([]);
    expect(seconds.filter((f) => f.at.call === 3).map((f) => f.kind)).toEqual(['lost_reply']);
    expect(seconds.some((f) => f.kind === 'crash_after_event' && f.at.seq! <= 9)).toBe(false);
    expect(seconds.length).toBe(timeline(run).length - timeline(run).findIndex((p) => p.fault.kind === 'lost_reply' && p.fault.at.call === 3));
  });

  it('adds nothing after a first fault that never fired', async () => {
    const scenario = byId('happy_path');
    const first = { kind: 'transient' as const, at: { call: 9 } };
    expect(secondFaults(await runWith(scenario, [first], reference), first, 0)).toEqual([]);
  });
});
