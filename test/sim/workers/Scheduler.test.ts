/**
 * The one scheduler of a many-worker run (src/sim/workers/Scheduler.ts): who moves next is a function of the
 * run so far and the schedule — the ready actor that waited longest, unless a schedule names another at that
 * choice — and a schedule is data that replays exactly.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import type { ScheduleChoice } from '../../../src/scenario/types.js';
import { TraceRecorder } from '../../../src/sim/TraceRecorder.js';
import { Scheduler } from '../../../src/sim/workers/Scheduler.js';
import { tempFolder } from '../../tempFolder.js'; // at the top: its afterAll, registered at import, removes what it made

/** Two actors taking `turns` turns each, and one that sleeps; what moved, in order. */
async function race(schedule: ScheduleChoice[] = [], turns = 3) {
  const clock = new VirtualClock();
  const scheduler = new Scheduler(clock, new TraceRecorder(clock), schedule, 100);
  const moves: string[] = [];
  for (const name of ['a', 'b']) {
    scheduler.spawn(name, async (self) => {
      for (let i = 1; i <= turns; i += 1) {
        moves.push(`${name}${i}`);
        await self.turn();
      }
    });
  }
  scheduler.spawn('sleeper', async (self) => {
    await self.sleep(50);
    moves.push(`sleeper@${clock.nowMs()}`);
  });
  await scheduler.run(() => false, () => {});
  return { moves, scheduler };
}

describe('the scheduler', () => {
  it('moves the ready actor that has waited longest, and jumps the clock to a sleeper when nobody is ready', async () => {
    const { moves, scheduler } = await race();
    expect(moves).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'b3', 'sleeper@50']);
    expect(scheduler.cut).toBeNull();
    // The sleeper's first move (it goes to sleep) is a choice too: three were ready at once.
    expect(scheduler.choices.map((c) => [c.choice, c.ready.join(','), c.ran])).toEqual([
      [1, 'a,b,sleeper', 'a'],
      [2, 'b,sleeper,a', 'b'],
      [3, 'sleeper,a,b', 'sleeper'],
      [4, 'a,b', 'a'],
      [5, 'b,a', 'b'],
      [6, 'a,b', 'a'],
      [7, 'b,a', 'b'],
      [8, 'a,b', 'a'],
    ]);
    expect(scheduler.choices.every((c) => c.byDefault)).toBe(true);
  });

  it('takes another ready actor where the schedule names it, and records the choice as not the default', async () => {
    const { moves, scheduler } = await race([{ choice: 4, run: 'b' }]);
    expect(moves).toEqual(['a1', 'b1', 'b2', 'a2', 'b3', 'a3', 'sleeper@50']);
    expect(scheduler.choices[3]).toMatchObject({ choice: 4, ran: 'b', byDefault: false });
    expect([...scheduler.applied]).toEqual([4]);
  });

  it('replays a run exactly from its recorded choices', async () => {
    const first = await race([{ choice: 2, run: 'sleeper' }, { choice: 4, run: 'b' }]);
    const replayed = await race(first.scheduler.choices.map((c) => ({ choice: c.choice, run: c.ran })));
    expect(replayed.moves).toEqual(first.moves);
  });

  it('ignores a schedule entry whose actor is not ready at that choice, and says so', async () => {
    const { scheduler } = await race([{ choice: 1, run: 'nobody' }]);
    expect(scheduler.applied.size).toBe(0);
    expect(scheduler.choices[0]!.ran).toBe('a');
  });

  it('lets an actor that met a lock move only after another actor has moved', async () => {
    const clock = new VirtualClock();
    const scheduler = new Scheduler(clock, new TraceRecorder(clock), [], 100);
    const moves: string[] = [];
    let locked = true;
    scheduler.spawn('waiter', async (self) => {
      while (locked) {
        moves.push('waiter: busy');
        await self.busy();
      }
      moves.push('waiter: in');
    });
    scheduler.spawn('holder', async (self) => {
      moves.push('holder: holds');
      await self.turn();
      locked = false;
      moves.push('holder: releases');
    });
    await scheduler.run(() => false, () => {});
    // The waiter tries again after each of the holder's moves, and gets in once the lock is gone.
    expect(moves).toEqual(['waiter: busy', 'holder: holds', 'waiter: busy', 'holder: releases', 'waiter: in']);
  });

  it('stops at its bound of turns, and says the run was cut', async () => {
    const clock = new VirtualClock();
    const scheduler = new Scheduler(clock, new TraceRecorder(clock), [], 10);
    scheduler.spawn('forever', async (self) => {
      for (;;) await self.turn();
    });
    await scheduler.run(() => false, () => {});
    expect([scheduler.turns, scheduler.cut]).toEqual([10, 'turns']);
  });
});

describe('a schedule written to a replay file', () => {
  it('is the workers block of the scenario YAML, and replays the same run through faultlab run', async () => {
    const { writeReplay } = await import('../../../src/explore/replayFile.js');
    const { loadScenario } = await import('../../../src/scenario/load.js');
    const { simulate } = await import('../../../src/sim/simulate.js');
    const { message } = await import('../../../src/core/message.js');
    const scenario = loadScenario('deferred_upgrade_busy');
    const first = await simulate(scenario);
    // Another interleaving: w2 moves first and wins the claim; then the recorded choices of that run.
    const schedule = [{ choice: 1, run: 'w2' }];
    const other = await simulate({ ...scenario, workers: { ...scenario.workers!, schedule } });
    expect(other.workers!.choices[0]).toMatchObject({ choice: 1, ran: 'w2', byDefault: false });
    expect(other.workers!.tasks[0]).toMatchObject({ owner: 'w2', token: 1 });
    const recorded = other.workers!.choices.map((c) => ({ choice: c.choice, run: c.ran }));
    const file = writeReplay(
      'en',
      { scenario, faults: [], invariant: 'inv8_one_live_holder', broke: { title: 't', message: 'm' }, who: message('cli.explore.whoMutant', { name: 'a test' }), schedule: recorded },
      tempFolder('replay'),
    );
    const replayed = loadScenario(file);
    expect(replayed.workers?.schedule).toEqual(recorded);
    const again = await simulate(replayed);
    expect(JSON.stringify(again.trace)).toBe(JSON.stringify(other.trace));
    expect(JSON.stringify(again.trace)).not.toBe(JSON.stringify(first.trace));
  });
});
