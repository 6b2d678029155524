import { VirtualClock } from '../core/clock.js';
import { SeededRng } from '../core/rng.js';
import { applyConfigOverrides } from '../durability/config/load.js';
import { defaultDurabilityConfig } from '../durability/config/defaults.js';
import type { DurabilityConfig } from '../durability/config/types.js';
import type { DurabilityEvent } from '../durability/events.js';
import type { PillarScenario, PillarTraceEvent, ScenarioEvent } from './types.js';

/** An event before it is stamped with the time (distributes over the union). */
export type Untimed<E> = E extends unknown ? Omit<E, 'atMs'> : never;

/**
 * What every experiment is handed: a virtual clock at 0, a seeded Rng, the durability configuration (the
 * defaults with the scenario's `config:` overrides applied), and the trace being written.
 */
export class RunContext {
  readonly clock = new VirtualClock();
  readonly rng: SeededRng;
  readonly config: DurabilityConfig;
  readonly events: PillarTraceEvent[] = [];
  /** Give this to a pillar: its events go straight into the trace. */
  readonly sink = (event: DurabilityEvent): void => {
    this.events.push(event);
  };

  constructor(
    readonly scenario: PillarScenario,
    readonly seed: number,
  ) {
    this.rng = new SeededRng(seed);
    this.config = applyConfigOverrides(defaultDurabilityConfig(), scenario.config ?? {}, 'config');
  }

  /** Add a scenario event stamped with the current virtual time. */
  emit(event: Untimed<ScenarioEvent>): void {
    this.events.push({ ...event, atMs: this.clock.nowMs() } as PillarTraceEvent);
  }

  step(text: string): void {
    this.emit({ type: 'scenario.step', text });
  }

  note(text: string): void {
    this.emit({ type: 'scenario.note', text });
  }

  /** Advance by `wait_ms`, or to `at_ms` (never backwards). */
  wait(step: { wait_ms?: number; at_ms?: number }): void {
    if (step.wait_ms !== undefined) this.clock.advance(step.wait_ms);
    if (step.at_ms !== undefined) {
      if (step.at_ms < this.clock.nowMs()) throw new ScenarioInputError(`at_ms ${step.at_ms} is in the past (now ${this.clock.nowMs()} ms)`);
      this.clock.advanceTo(step.at_ms);
    }
  }
}

/** A scenario the schema let through but that cannot run (e.g. a report for a call never started). */
export class ScenarioInputError extends Error {
  override readonly name = 'ScenarioInputError';
  readonly code = 'SCENARIO_INVALID';
}

/** Round a ratio for figures so YAML expectations can state it (0.5455, not 0.5454545454545454). */
export function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
