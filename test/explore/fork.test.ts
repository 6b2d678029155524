/**
 * Forking is exact: a schedule started from a pause of the run it extends gives the very run a fresh start
 * gives — the same trace event for event, log, final state, database, faults and checks — for every
 * schedule of depth 1 on the 17 scenarios and of depth 2 on a few with crashes, replies lost and retries.
 */
import { describe, expect, it } from 'vitest';
import { depthOneSchedules, secondFaults } from '../../src/explore/enumerate.js';
import { Bases, forkable, resumePoint, runFrom, runPaused } from '../../src/explore/fork.js';
import { runForVerdict } from '../../src/explore/runSchedule.js';
import type { Checkpoint } from '../../src/sim/checkpoint.js';
import { simulate } from '../../src/sim/simulate.js';
import { mutantNamed } from '../../src/mutants/catalogue.js';
import { byId, mutantTarget, reference, seventeen } from './helpers.js';
import { openRunner } from '../../src/target/runners.js';
import { targetOf } from '../../src/explore/target.js';

describe('a forked schedule', () => {
  it('is the run a fresh start gives, for every depth-1 schedule of the 17 scenarios', async () => {
    const bases = new Bases(reference);
    let forked = 0;
    for (const scenario of seventeen()) {
      const base = (await bases.of(scenario))!;
      for (const [fault] of depthOneSchedules(base.run)) {
        const from = resumePoint(base, fault!);
        if (from !== null) forked += 1;
        // On the thread's kept connections, as the explorer runs it, and on connections of its own.
        expect(await runFrom(scenario, [fault!], reference, from, bases.kept)).toEqual(await runForVerdict(scenario, [fault!], reference));
        if (forked % 7 === 0) expect(await runFrom(scenario, [fault!], reference, from)).toEqual(await runForVerdict(scenario, [fault!], reference));
      }
    }
    // Every schedule but the crash after event #1 ('started', saved before the first pause) started from a pause.
    expect(forked).toBe(834 - 17);
    bases.close();
  });

  it('is the run a fresh start gives, for every depth-2 schedule of scenarios with crashes, lost replies and retries', async () => {
    const bases = new Bases(reference);
    let pairs = 0;
    for (const id of ['crash_after_commit', 'retry_after_version_moved']) {
      const scenario = byId(id);
      const base = (await bases.of(scenario))!;
      for (const [first] of depthOneSchedules(base.run)) {
        const parent = await runPaused(scenario, [first!], reference, resumePoint(base, first!), bases.kept);
        expect(parent.run).toEqual(await runForVerdict(scenario, [first!], reference));
        for (const second of secondFaults(parent.run, first!, scenario.faults.length)) {
          pairs += 1;
          expect(await runFrom(scenario, [first!, second], reference, resumePoint(parent, second), bases.kept)).toEqual(await runForVerdict(scenario, [first!, second], reference));
        }
      }
    }
    expect(pairs).toBeGreaterThan(1_000);
    bases.close();
  }, 120_000);

  it('starts from the last pause before its fault can strike, and from the end when the fault is never reached', async () => {
    const base = (await new Bases(reference).of(byId('happy_path')))!;
    // The event crash at #5 (read_doc's attempt_started) can strike only after the trace shows event #5 saved.
    const at5 = base.run.trace.findIndex((event) => event.type === 'saved' && event.seq === 5);
    const from = resumePoint(base, { kind: 'crash_after_event', at: { seq: 5 } })!;
    expect(from.traceLength).toBeLessThanOrEqual(at5);
    expect(base.checkpoints.find((c: Checkpoint) => c.traceLength > from.traceLength)!.traceLength).toBeGreaterThan(at5);
    // A transient at call 6 never comes (the happy path makes 4 calls): its schedule starts from the last pause.
    expect(resumePoint(base, { kind: 'transient', at: { call: 6 } })).toBe(base.checkpoints.at(-1));
    // A fault named by its tool could strike anywhere: no pause comes before it.
    expect(resumePoint(base, { kind: 'transient', at: { tool: 'reserve', attempt: 1 } })).toBeNull();
  });

  it('is for the reference runner only: a runner that may keep something between steps runs every schedule from the start', async () => {
    const mutant = mutantNamed('waits_for_lost_reply')!;
    expect(forkable(byId('happy_path'), reference)).toBe(true);
    expect(forkable(byId('happy_path'), mutantTarget(mutant))).toBe(false);
    expect(forkable(byId('happy_path'), { ...reference, storage: 'file' })).toBe(false);
    expect(await new Bases(mutantTarget(mutant)).of(byId('happy_path'))).toBeNull();
  });

  it('keeps the crash model: a pause holds only committed data, and refuses file storage and the pillars', async () => {
    const checkpoints: Checkpoint[] = [];
    await simulate(byId('crash_before_commit'), { storage: 'memory', onCheckpoint: (c) => checkpoints.push(c) });
    expect(checkpoints.length).toBeGreaterThan(5);
    await expect(simulate(byId('happy_path'), { storage: 'file', onCheckpoint: () => {} })).rejects.toThrow(/in-memory/);
  });
});

describe('forking a learner’s runner in its box', () => {
  it('forks once the runner has shown it keeps nothing between steps, and gives the runs a fresh start gives', async () => {
    const opened = await openRunner({ kind: 'file', file: 'test/fixtures/learners/solution/LearnerRunner.ts' }, 'solution');
    try {
      const target = targetOf(opened, 42, 'memory');
      const bases = new Bases(target);
      const scenario = byId('lost_reply');
      const base = (await bases.of(scenario))!;
      expect(base).not.toBeNull();
      for (const [fault] of depthOneSchedules(base.run).slice(0, 12)) {
        expect(await runFrom(scenario, [fault!], target, resumePoint(base, fault!), bases.kept)).toEqual(await runForVerdict(scenario, [fault!], target));
      }
      bases.close();
    } finally {
      await opened.close();
    }
  }, 60_000);

  it('runs every schedule from the start for a runner that keeps something in its instance between steps', async () => {
    const opened = await openRunner({ kind: 'file', file: 'test/fixtures/learners/stateful/LearnerRunner.ts' }, 'stateful');
    try {
      const bases = new Bases(targetOf(opened, 42, 'memory'));
      expect(await bases.of(byId('happy_path'))).toBeNull();
      expect(await bases.of(byId('lost_reply'))).toBeNull(); // once shown, for every scenario
      bases.close();
    } finally {
      await opened.close();
    }
  }, 60_000);
});
