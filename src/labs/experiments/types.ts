import { ScenarioInputError, type RunContext } from '../context.js';
import type { Meanings } from '../../check/figures.js';

/** One kind of pillar experiment: runs the scenario's set-up on a RunContext and returns its figures. */
export interface Experiment {
  /** For check titles and messages: what each top-level figure means, in a few words. */
  meanings: Meanings;
  run(ctx: RunContext): Record<string, unknown>;
}

/** A step that only moves time or annotates the trace; shared by the scripted experiments. */
export type TimeStep = { wait_ms: number } | { at_ms: number } | { note: string };

export function isTimeStep(step: object): step is TimeStep {
  return 'wait_ms' in step || 'at_ms' in step || 'note' in step;
}

export function runTimeStep(ctx: RunContext, step: TimeStep): void {
  if ('note' in step) ctx.note(step.note);
  else ctx.wait(step);
}

export function onlyKey(step: object, index: number): string {
  const keys = Object.keys(step);
  if (keys.length !== 1) throw new ScenarioInputError(`step ${index + 1} must have exactly one action, got ${keys.join(', ') || 'none'}`);
  return keys[0] as string;
}
