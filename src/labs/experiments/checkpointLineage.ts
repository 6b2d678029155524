import { CheckpointStore, type Checkpoint } from '../../durability/checkpoint/CheckpointStore.js';
import { isDurabilityError } from '../../durability/errors.js';
import { openDatabase } from '../../core/storage.js';
import type { LabContext } from '../LabContext.js';
import { ScenarioInputError } from '../ScenarioInputError.js';
import type { PathSegment } from '../../scenario/yamlSource.js';
import { isTimeStep, onlyKey, runTimeStep, type Experiment, type TimeStep } from './types.js';
import { msg } from '../../render/words/index.js';

/**
 * The manifest as a tree: saves continue a task, a fork starts a branch from an earlier checkpoint, a
 * rewind makes an earlier checkpoint the task's latest again, and lineage walks back to the root. Every
 * checkpoint lives for its TTL: after it, restore answers CHECKPOINT_EXPIRED and a fork from it is refused.
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
  meanings: () => ({
    checkpoints: msg('lab.checkpoint.meaning.checkpoints'),
    parents: msg('lab.checkpoint.meaning.parents'),
    restored: msg('lab.checkpoint.meaning.restored'),
    lineage: msg('lab.checkpoint.meaning.lineage'),
    refused: msg('lab.checkpoint.meaning.refused'),
  }),

  run(ctx: LabContext): Record<string, unknown> {
    const setup = ctx.scenario as unknown as Setup;
    const db = openDatabase();
    const store = new CheckpointStore({ db, clock: ctx.clock, config: ctx.config.checkpoint, events: ctx.sink });
    const ids: Record<string, string> = {};
    const parents: Record<string, string | null> = {};
    const restored: Record<string, unknown> = {};
    const lineage: Record<string, string[]> = {};
    const refused: Record<string, string> = {};
    /** The id of a labelled checkpoint; `path` is the field that names the label, for the error. */
    const idOf = (label: string, path: readonly PathSegment[]): string => {
      const id = ids[label];
      if (id === undefined) {
        const known = Object.keys(ids);
        throw new ScenarioInputError(msg('lab.input.noCheckpoint', { label, known: known.length > 0 ? known.join(', ') : msg('lab.input.none') }), path);
      }
      return id;
    };
    const keep = (label: string, c: Checkpoint): void => {
      ids[label] = c.checkpointId;
      parents[label] = c.parentCheckpointId;
    };
    /** A store refusal (expired, another task's checkpoint) is a figure of the lab, not a crash of it. */
    const attempt = (label: string, work: () => Checkpoint): void => {
      try {
        keep(label, work());
      } catch (error) {
        if (!isDurabilityError(error)) throw error;
        refused[label] = error.code;
        ctx.note(msg('lab.checkpoint.refused', { code: error.code, message: error.message }));
      }
    };
    try {
      setup.steps.forEach((step, index) => {
        onlyKey(step, index);
        if (isTimeStep(step)) return runTimeStep(ctx, step, index);
        if ('save' in step) {
          const s = step.save;
          const params = { task: s.task_id, phase: s.phase, label: s.label };
          ctx.step(s.ttl_seconds === undefined ? msg('lab.checkpoint.save', params) : msg('lab.checkpoint.saveTtl', { ...params, ttl: s.ttl_seconds }));
          attempt(s.label, () => store.save(s.task_id, setup.agent_id, s.phase, s.state ?? {}, s.ttl_seconds));
        } else if ('fork' in step) {
          const s = step.fork;
          const from = idOf(s.from, ['steps', index, 'fork', 'from']);
          ctx.step(msg('lab.checkpoint.fork', { from: s.from, id: from, task: s.new_task_id, label: s.label }));
          attempt(s.label, () => store.fork(from, s.new_task_id));
        } else if ('rewind' in step) {
          const s = step.rewind;
          const to = idOf(s.to, ['steps', index, 'rewind', 'to']);
          ctx.step(msg('lab.checkpoint.rewind', { task: s.task_id, to: s.to, id: to, label: s.label }));
          attempt(s.label, () => store.rewind(s.task_id, to));
        } else if ('restore' in step) {
          const s = step.restore;
          ctx.step(msg('lab.checkpoint.restore', { what: s.phase ? `${s.task_id}/${s.phase}` : s.task_id, label: s.label }));
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
          const chain = store.lineage(idOf(s.of, ['steps', index, 'lineage', 'of'])).map(line);
          lineage[s.label] = chain;
          ctx.step(msg('lab.checkpoint.lineage', { of: s.of, label: s.label, chain: chain.join(' ← ') }));
        }
      });
    } finally {
      db.close();
    }
    return { checkpoints: ids, parents, restored, lineage, refused };
  },
};
