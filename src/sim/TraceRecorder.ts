/** Collects trace events in order, stamping each with the virtual time and the harness step. */
import type { Clock } from '../core/clock.js';
import type { TraceEvent } from './events.js';

type Unstamped = TraceEvent extends infer E ? (E extends TraceEvent ? Omit<E, 't' | 'step'> : never) : never;

export class TraceRecorder {
  readonly events: TraceEvent[] = [];
  step = 0;
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  emit(event: Unstamped): void {
    this.events.push({ ...event, t: this.#clock.nowMs(), step: this.step } as TraceEvent);
  }
}
