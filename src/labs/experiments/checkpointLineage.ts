import { CheckpointStore, type Checkpoint } from '../../durability/checkpoint/CheckpointStore.js';
import { isDurabilityError } from '../../durability/errors.js';
import { openDatabase } from '../../core/storage.js';
import { ScenarioInputError, type RunContext } from '../context.js';
import { isTimeStep, onlyKey, runTimeStep, type Experiment, type TimeStep } from './types.js';

/**
 * The manifest as a tree: saves continue a task, a fork starts a branch from an earlier checkpoint, a
 * rewind makes an earlier checkpoint the task's latest again, and lineage walks back to the root.
 * Steps name their checkpoints with labels; figures use the labels and the deterministic ids.
 */

type Step =
  | TimeStep
  | { save: { label: string; task_id: string; phase: string; state?: unknown; ttl_seconds?: number } }
  | { fork: { label: string; from: string; new_task_id: string } }
  | { rewind: { label: string; task_id: string; to: string } }
  | { restore: { label: string; task_id: string; phase?: string } }
  | { lineage: { label: string; of: string } };

interface Setup {
  agent_id: string;
  steps: Step[];
}

const line = (c: Checkpoint): string => `${c.checkpointId} ${c.taskId}/${c.phase}`;

export const checkpointLineageExperiment: Experiment = {
  meanings: {
    checkpoints: 'the id each labelled save, fork or rewind got',
    parents: 'the parent of each labelled checkpoint',
    restored: 'what each restore step returned (or the error code)',
    lineage: 'each lineage walk, newest first: id task/phase',
  },

  run(ctx: RunContext): Record<string, unknown> {
    const setup = ctx.scenario as unknown as Setup;
    const db = openDatabase();
    const store = new CheckpointStore({ db, clock: ctx.clock, config: ctx.config.checkpoint, events: ctx.sink });
    const ids: Record<string, string> = {};
    const parents: Record<string, string | null> = {};
    const restored: Record<string, unknown> = {};
    const lineage: Record<string, string[]> = {};
    const idOf = (label: string): string => {
      const id = ids[label];
      if (id === undefined) throw new ScenarioInputError(`no checkpoint labelled "${label}" yet`);
      return id;
    };
    const keep = (label: string, c: Checkpoint): void => {
      ids[label] = c.checkpointId;
      parents[label] = c.parentCheckpointId;
    };
    try {
      setup.steps.forEach((step, index) => {
        onlyKey(step, index);
        if (isTimeStep(step)) return runTimeStep(ctx, step);
        if ('save' in step) {
          const s = step.save;
          ctx.step(`save ${s.task_id}/${s.phase} [${s.label}]`);
          keep(s.label, store.save(s.task_id, setup.agent_id, s.phase, s.state ?? {}, s.ttl_seconds));
        } else if ('fork' in step) {
          const s = step.fork;
          ctx.step(`fork ${s.from} (${idOf(s.from)}) into task ${s.new_task_id} [${s.label}]`);
          keep(s.label, store.fork(idOf(s.from), s.new_task_id));
        } else if ('rewind' in step) {
          const s = step.rewind;
          ctx.step(`rewind ${s.task_id} to ${s.to} (${idOf(s.to)}) [${s.label}]`);
          keep(s.label, store.rewind(s.task_id, idOf(s.to)));
        } else if ('restore' in step) {
          const s = step.restore;
          ctx.step(`restore ${s.task_id}${s.phase ? `/${s.phase}` : ''} [${s.label}]`);
          try {
            const c = store.restore(s.task_id, setup.agent_id, s.phase);
            restored[s.label] = { checkpoint_id: c.checkpointId, phase: c.phase, state: c.state };
          } catch (error) {
            if (!isDurabilityError(error)) throw error;
            restored[s.label] = { error: error.code };
            ctx.note(`${error.code}: ${error.message}`);
          }
        } else {
          const s = step.lineage;
          const chain = store.lineage(idOf(s.of)).map(line);
          lineage[s.label] = chain;
          ctx.step(`lineage of ${s.of} [${s.label}]: ${chain.join(' ← ')}`);
        }
      });
    } finally {
      db.close();
    }
    return { checkpoints: ids, parents, restored, lineage };
  },
};
