import type { LabContext } from '../LabContext.js';
import { ScenarioInputError } from '../ScenarioInputError.js';
import type { Meanings } from '../../check/figures.js';
import { msg } from '../../render/words/index.js';

/** One kind of lab: runs the lab's set-up on a LabContext and returns its figures. */
export interface Experiment {
  /** For check messages: what each top-level figure means, in a few words (a message each). */
  meanings(): Meanings;
  run(ctx: LabContext): Record<string, unknown>;
}

/**
 * A step that only moves time or annotates the trace; shared by the scripted labs. A note is the lab's own
 * words: it may carry its Chinese beside it (`zh:`), shown when faultlab speaks Chinese.
 */
export type TimeStep = { wait_ms: number } | { at_ms: number } | { note: string; zh?: string };

export function isTimeStep(step: object): step is TimeStep {
  return 'wait_ms' in step || 'at_ms' in step || 'note' in step;
}

/** `steps[index]` of the lab, for a time step. */
export function runTimeStep(ctx: LabContext, step: TimeStep, index: number): void {
  if ('note' in step) ctx.note(step.note, step.zh);
  else ctx.wait(step, ['steps', index]);
}

/** The one action of a step (a note's Chinese beside it is part of the note, not a second action). */
export function onlyKey(step: object, index: number): string {
  const keys = Object.keys(step).filter((key) => key !== 'zh' || !('note' in step));
  if (keys.length !== 1) throw new ScenarioInputError(msg('lab.input.oneAction', { got: keys.join(', ') || msg('lab.input.none') }), ['steps', index]);
  return keys[0] as string;
}
