import { CheckpointStore } from '../../durability/checkpoint/CheckpointStore.js';
import { isDurabilityError } from '../../durability/errors.js';
import { crashAndReopen, openDatabase } from '../../core/storage.js';
import type { LabContext } from '../LabContext.js';
import type { Experiment } from './types.js';

/**
 * A multi-stop route with a manifest. Each phase does its work (one counted effect), then saves a
 * checkpoint. The process crashes once — just after a phase's checkpoint committed, or just before —
 * and a new process restores the latest checkpoint and carries on from the phase after it.
 */

interface Setup {
  task_id: string;
  agent_id: string;
  phases: string[];
  phase_ms: number;
  crash: { after_phase: string; point: 'after_checkpoint' | 'before_checkpoint' };
  recover_after_ms: number;
}

class Crashed extends Error {}

export const resumableTaskExperiment: Experiment = {
  meanings: {
    effects_per_phase: 'how many times each phase did its work (more than 1 = work done twice)',
    restored_phase: 'the phase the recovered process restored (null: it found no checkpoint)',
    phases_run_before_crash: 'phases the first process ran',
    phases_run_after_recovery: 'phases the recovered process ran',
    repeated_phases: 'phases whose work was done more than once',
    checkpoints_saved: 'checkpoints in the manifest at the end',
  },

  run(ctx: LabContext): Record<string, unknown> {
    const setup = ctx.scenario as unknown as Setup;
    const effects: Record<string, number> = Object.fromEntries(setup.phases.map((p) => [p, 0]));
    let db = openDatabase();
    let crashed = false;
    let restoredPhase: string | null = null;

    const process = (name: string): string[] => {
      const store = new CheckpointStore({ db, clock: ctx.clock, config: ctx.config.checkpoint, events: ctx.sink });
      let start = 0;
      ctx.step(`${name} asks for the latest checkpoint of ${setup.task_id}`);
      try {
        const cp = store.restore(setup.task_id, setup.agent_id);
        start = setup.phases.indexOf(cp.phase) + 1;
        if (crashed) restoredPhase = cp.phase;
        ctx.note(`phase ${cp.phase} is done: continue at ${setup.phases[start] ?? '(nothing left)'}`);
      } catch (error) {
        if (!isDurabilityError(error, 'CHECKPOINT_NOT_FOUND')) throw error;
        ctx.note('there is none: start at the first phase');
      }
      const ran: string[] = [];
      for (const phase of setup.phases.slice(start)) {
        ctx.clock.advance(setup.phase_ms);
        effects[phase] = (effects[phase] ?? 0) + 1;
        ran.push(phase);
        ctx.emit({ type: 'phase.run', taskId: setup.task_id, phase, effects: effects[phase] ?? 0 });
        const crashHere = !crashed && phase === setup.crash.after_phase;
        if (crashHere && setup.crash.point === 'before_checkpoint') throw Object.assign(new Crashed(), { ran });
        store.save(setup.task_id, setup.agent_id, phase, { completed: setup.phases.slice(0, setup.phases.indexOf(phase) + 1) });
        if (crashHere) throw Object.assign(new Crashed(), { ran });
      }
      return ran;
    };

    let before: string[] = [];
    try {
      before = process('process 1');
    } catch (error) {
      if (!(error instanceof Crashed)) {
        db.close();
        throw error;
      }
      before = (error as Crashed & { ran: string[] }).ran;
      crashed = true;
      db = crashAndReopen(db);
      ctx.emit({ type: 'scenario.crash', text: `process 1 crashes ${setup.crash.point === 'after_checkpoint' ? 'just after' : 'just before'} saving the checkpoint of ${setup.crash.after_phase}; only what was committed survives` });
      ctx.clock.advance(setup.recover_after_ms);
      ctx.emit({ type: 'scenario.recovered', text: 'process 2 starts on the same database' });
    }
    let after: string[] = [];
    let saved: number;
    try {
      after = crashed ? process('process 2') : [];
      saved = new CheckpointStore({ db, clock: ctx.clock, config: ctx.config.checkpoint }).list().length;
    } finally {
      db.close();
    }
    return {
      effects_per_phase: effects,
      restored_phase: restoredPhase,
      phases_run_before_crash: before,
      phases_run_after_recovery: after,
      repeated_phases: setup.phases.filter((p) => (effects[p] ?? 0) > 1),
      checkpoints_saved: saved,
    };
  },
};
