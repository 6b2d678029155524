import { describe, expect, it } from 'vitest';
import { runLab, ScenarioInputError, type LabScenario } from '../../../src/labs/index.js';
import { loadLab, plain, refusal } from '../helpers.js';

/**
 * The IdempotencyStore on its own: a careful caller's submit is checkAndRecord, then (only when New) the
 * work and record. The window is one hour (durability.yaml), and a record is live while its age is
 * strictly below it: the edge belongs to the next operation.
 */

const NOTE = { save_note: { agent_id: 'agent-1', operation_type: 'memory_write', content: { note: 'customer prefers email' } } };
const lab = (steps: unknown[], extra: Record<string, unknown> = {}): LabScenario =>
  ({ ...loadLab('dedup_window_expiry'), operations: NOTE, steps, expect: { effects: 0 }, ...extra }) as LabScenario;
const figuresOf = (steps: unknown[], extra: Record<string, unknown> = {}) => runLab(lab(steps, extra), { seed: 42 }).figures;
const submit = (label: string) => ({ submit: { operation: 'save_note', label } });

describe('the dedup window', () => {
  it('answers a duplicate 1 ms before the hour with the original result, and runs the work again at the hour', () => {
    const f = runLab(loadLab('dedup_window_expiry'), { seed: 42 }).figures;
    expect(f.answers).toEqual({ original: 'new', half_an_hour_later: 'duplicate', last_ms_of_window: 'duplicate', window_over: 'new' });
    expect(f.results).toEqual({ original: 'r-1', half_an_hour_later: 'r-1', last_ms_of_window: 'r-1', window_over: 'r-2' });
    expect(f.window_ends_at_ms).toEqual({ half_an_hour_later: 3_600_000, last_ms_of_window: 3_600_000 });
    expect(f.effects).toBe(2);
  });

  it('says so in the trace, at the millisecond', () => {
    const text = plain(runLab(loadLab('dedup_window_expiry'), { seed: 42 }));
    expect(text).toContain('3599999ms  ⇒ [last_ms_of_window] duplicate: handed the original result "r-1", not run again');
    expect(text).toContain('3600000ms  ⇒ [window_over] new: the work runs (effect #2) and its result "r-2" is recorded');
  });

  it('keeps the late write a duplicate when the lab widens the window to two hours', () => {
    const widened = runLab({ ...loadLab('dedup_window_expiry'), config: { idempotency: { dedup_window_seconds: 7200 } } }, { seed: 42 });
    expect(widened.figures.answers).toMatchObject({ window_over: 'duplicate' });
    expect(widened.figures.effects).toBe(1);
    expect(widened.passed).toBe(false);
  });
});

describe('check, claim and release', () => {
  it('check only asks: a New answer claims nothing, so the next submit is New too', () => {
    const f = figuresOf([{ check: { operation: 'save_note', label: 'asked' } }, submit('done')]);
    expect(f.answers).toEqual({ asked: 'new', done: 'new' });
    expect(f.effects).toBe(1);
  });

  it('a claimed key is a duplicate in progress, with no result to hand back, until it is released', () => {
    const f = figuresOf([
      { claim: { operation: 'save_note', label: 'running' } },
      submit('meanwhile'),
      { release: { operation: 'save_note', label: 'failed' } },
      submit('retry'),
      { release: { operation: 'save_note', label: 'too_late' } },
    ]);
    expect(f.answers).toEqual({ running: 'new', meanwhile: 'duplicate', retry: 'new' });
    expect(f.in_progress).toEqual({ meanwhile: true });
    expect(f.results).toMatchObject({ meanwhile: { status: 'in_progress' }, retry: 'r-1' });
    expect(f.released).toEqual({ failed: true, too_late: false });
    expect(f.effects).toBe(1);
    expect(f.records).toBe(1);
  });
});

describe('bad input', () => {
  it('names the step field of an operation that does not exist', () => {
    const call = () => runLab(lab([submit('ok'), { check: { operation: 'save_nothing', label: 'x' } }]), { seed: 42 });
    expect(call).toThrow(ScenarioInputError);
    expect(refusal(call)).toMatchObject({ path: ['steps', 1, 'check', 'operation'], message: 'no operation "save_nothing" (operations: save_note)' });
  });

  it('refuses a time step that goes backwards, at its at_ms', () => {
    expect(() => runLab(lab([{ wait_ms: 10 }, { at_ms: 5 }]), { seed: 42 })).toThrow(expect.objectContaining({ path: ['steps', 1, 'at_ms'] }));
  });
});
