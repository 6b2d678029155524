import { VirtualClock } from '../core/clock.js';
import { SeededRng } from '../core/rng.js';
import { applyConfigOverrides } from '../durability/config/load.js';
import { defaultDurabilityConfig } from '../durability/config/defaults.js';
import type { DurabilityConfig } from '../durability/config/types.js';
import type { DurabilityEvent } from '../durability/events.js';
import type { PathSegment } from '../scenario/yamlSource.js';
import { ScenarioInputError } from './ScenarioInputError.js';
import type { LabEvent, LabScenario, LabTraceEvent } from './types.js';
import { msg } from '../render/words/index.js';
import type { Said } from '../core/message.js';

/** An event before it is stamped with the time (distributes over the union). */
export type Untimed<E> = E extends unknown ? Omit<E, 'atMs'> : never;

/**
 * What every lab is handed: the one virtual clock (src/core/clock) at 0, the seeded Rng (src/core/rng),
 * the durability configuration (the defaults with the lab's `config:` overrides applied), and the trace
 * being written. Nothing else: a lab opens its stores with src/core/storage, the one crash model.
 */
export class LabContext {
  readonly clock = new VirtualClock();
  readonly rng: SeededRng;
  readonly config: DurabilityConfig;
  readonly events: LabTraceEvent[] = [];
  /** Give this to a pillar: its events go straight into the trace. */
  readonly sink = (event: DurabilityEvent): void => {
    this.events.push(event);
  };

  constructor(
    readonly scenario: LabScenario,
    readonly seed: number,
  ) {
    this.rng = new SeededRng(seed);
    this.config = applyConfigOverrides(defaultDurabilityConfig(), scenario.config ?? {}, 'config');
  }

  /** Add a lab event stamped with the current virtual time. */
  emit(event: Untimed<LabEvent>): void {
    this.events.push({ ...event, atMs: this.clock.nowMs() } as LabTraceEvent);
  }

  step(text: Said): void {
    this.emit({ type: 'scenario.step', text });
  }

  /** A note: a message, or the lab's own words (with their Chinese, when the file gives it). */
  note(text: Said, zh?: string): void {
    this.emit({ type: 'scenario.note', text, ...(zh !== undefined ? { zh } : {}) });
  }

  /** Advance by `wait_ms`, or to `at_ms` (never backwards); `path` is the step's, for the error. */
  wait(step: { wait_ms?: number; at_ms?: number }, path: readonly PathSegment[]): void {
    if (step.wait_ms !== undefined) this.clock.advance(step.wait_ms);
    if (step.at_ms !== undefined) {
      if (step.at_ms < this.clock.nowMs()) throw new ScenarioInputError(msg('lab.input.pastAt', { at: step.at_ms, now: this.clock.nowMs() }), [...path, 'at_ms']);
      this.clock.advanceTo(step.at_ms);
    }
  }
}

/** Round a ratio for figures so YAML expectations can state it (0.5455, not 0.5454545454545454). */
export function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
