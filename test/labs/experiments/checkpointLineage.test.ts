import { describe, expect, it } from 'vitest';
import { runLab, ScenarioInputError, type LabScenario } from '../../../src/labs/index.js';
import { loadLab, plain, refusal } from '../helpers.js';

/** The checkpoint API as a lab: fork, rewind and lineage keep their parents; a TTL ends to the millisecond. */

const lab = (steps: unknown[]): LabScenario => ({ ...loadLab('checkpoint_fork_and_rewind'), steps, expect: { checkpoints: {} } }) as LabScenario;

describe('fork, rewind, lineage', () => {
  it('walks a fork back through its source to the original task, and a rewind back through the old draft', () => {
    const f = runLab(loadLab('checkpoint_fork_and_rewind'), { seed: 42 }).figures;
    expect(f.lineage).toEqual({
      alt_history: ['cp-000005 essay-casual/draft', 'cp-000004 essay-casual/outline', 'cp-000001 essay/outline'],
      essay_history: ['cp-000006 essay/draft', 'cp-000002 essay/draft', 'cp-000001 essay/outline'],
    });
    expect(f.restored).toEqual({ essay_now: { checkpoint_id: 'cp-000006', phase: 'draft', state: { words: 900 } } });
  });

  it('refuses to rewind a task to another task’s checkpoint, as a figure of the lab', () => {
    const f = runLab(
      lab([
        { save: { label: 'a', task_id: 'essay', phase: 'outline' } },
        { save: { label: 'b', task_id: 'poem', phase: 'outline' } },
        { rewind: { label: 'wrong', task_id: 'essay', to: 'b' } },
      ]),
      { seed: 42 },
    ).figures;
    expect(f.refused).toEqual({ wrong: 'CHECKPOINT_TASK_MISMATCH' });
    expect(f.checkpoints).toEqual({ a: 'cp-000001', b: 'cp-000002' });
  });
});

describe('TTL', () => {
  const r = runLab(loadLab('checkpoint_ttl_expiry'), { seed: 42 });

  it('restores and forks 1 ms before the TTL ends, and refuses both at the TTL', () => {
    expect(r.figures.restored).toEqual({
      just_in_time: { checkpoint_id: 'cp-000001', phase: 'sorted', state: { tickets: 12 } },
      too_late: { error: 'CHECKPOINT_EXPIRED' },
      branch_now: { checkpoint_id: 'cp-000002', phase: 'sorted', state: { tickets: 12 } },
    });
    expect(r.figures.refused).toEqual({ late_branch: 'CHECKPOINT_EXPIRED' });
  });

  it('says when each checkpoint expires, and why a fork was refused', () => {
    const text = plain(r);
    expect(text).toContain('checkpoint: saved cp-000001 triage/sorted (parent none; expires at 60000ms)');
    expect(text).toContain('checkpoint: saved cp-000002 triage-urgent/sorted (parent cp-000001; expires at 86459999ms)');
    expect(text).toContain('note: refused: CHECKPOINT_EXPIRED: cp-000001 expired at 60000 ms');
  });
});

describe('bad input', () => {
  it('names the field of a label no step has given yet', () => {
    const call = () => runLab(lab([{ save: { label: 'a', task_id: 'essay', phase: 'outline' } }, { lineage: { label: 'l', of: 'nope' } }]), { seed: 42 });
    expect(call).toThrow(ScenarioInputError);
    expect(refusal(call)).toMatchObject({ path: ['steps', 1, 'lineage', 'of'], message: 'no checkpoint labelled "nope" yet (labelled so far: a)' });
  });
});
