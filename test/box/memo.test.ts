/**
 * The memo of a box's conversations (src/box/memo.ts): a step is a function of the state it is handed and the
 * answers to its calls, so a conversation the box has had once needs no box again — the harness still carries out
 * every call. Held here: a remembered run is the run the box gives, field for field; most messages of an
 * exploration need no round trip; and a step that answers a conversation it was told again otherwise is caught
 * the moment the box is told it, the memo stops, nothing it served is kept.
 */
import { describe, expect, it } from 'vitest';
import { ConversationMemo } from '../../src/box/memo.js';
import { depthOneSchedules } from '../../src/explore/enumerate.js';
import { Bases, resumePoint, runFrom } from '../../src/explore/fork.js';
import { runForVerdict } from '../../src/explore/runSchedule.js';
import { targetOf } from '../../src/explore/target.js';
import { openRunner } from '../../src/target/runners.js';
import { byId } from '../explore/helpers.js';

describe('a remembered conversation', () => {
  it('gives the very run the box gives, for every depth-1 schedule of two scenarios, and spares most round trips', async () => {
    const opened = await openRunner({ kind: 'file', file: 'test/fixtures/learners/solution/LearnerRunner.ts' }, 'solution');
    try {
      const target = targetOf(opened, 42, 'memory');
      const bases = new Bases(target);
      const memo = new ConversationMemo();
      let schedules = 0;
      for (const id of ['lost_reply', 'crash_after_commit']) {
        const scenario = byId(id);
        const base = (await bases.of(scenario))!;
        for (const [fault] of depthOneSchedules(base.run)) {
          const remembered = await runFrom(scenario, [fault!], { ...target, memo }, resumePoint(base, fault!), bases.kept);
          expect(remembered).toEqual(await runForVerdict(scenario, [fault!], target));
          schedules += 1;
        }
      }
      expect(schedules).toBe(58 + 57);
      expect(memo.diverged).toBe(false);
      // Measured: 1,468 messages served, 172 conversations told to the box (over the graded set, the grade: ~88 % served).
      expect(memo.hits).toBeGreaterThan(5 * memo.misses);
      bases.close();
    } finally {
      await opened.close();
    }
  }, 120_000);

  it('runs a schedule it has seen whole without the box', async () => {
    const opened = await openRunner({ kind: 'file', file: 'test/fixtures/learners/solution/LearnerRunner.ts' }, 'solution');
    try {
      const target = { ...targetOf(opened, 42, 'memory'), memo: new ConversationMemo() };
      const scenario = byId('lost_reply');
      const first = await runForVerdict(scenario, [], target);
      const misses = target.memo.misses;
      expect(misses).toBeGreaterThan(0);
      expect(await runForVerdict(scenario, [], target)).toEqual(first);
      expect(target.memo.misses).toBe(misses);
    } finally {
      await opened.close();
    }
  }, 60_000);
});

describe('a step that is not a function of what it is told', () => {
  it('is caught when the box is told a remembered conversation again: the memo stops and the run is not kept', async () => {
    const opened = await openRunner({ kind: 'file', file: 'test/fixtures/learners/remembers/LearnerRunner.ts' }, 'remembers');
    try {
      const target = { ...targetOf(opened, 42, 'memory'), memo: new ConversationMemo() };
      const scenario = byId('happy_path');
      const asWritten = await runForVerdict(scenario, [], target);
      expect(asWritten.passed).toBe(true);
      // The same run again, a transient on the last call: the steps before it are served; at the first new
      // answer the box is told that step's conversation from its start — a state it has seen, so it says more.
      await runForVerdict(scenario, [{ kind: 'transient', at: { call: 4 } }], target);
      expect(target.memo.diverged).toBe(true);
      expect(target.ended?.loss?.protocol?.code).toBe('box.memo.diverged');
      // And nothing more is served from it.
      const hits = target.memo.hits;
      await runForVerdict(scenario, [], target);
      expect(target.memo.hits).toBe(hits);
    } finally {
      await opened.close();
    }
  }, 60_000);
});
