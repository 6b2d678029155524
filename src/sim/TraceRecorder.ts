/** Collects trace events in order, stamping each with the virtual time and the harness step. */
import type { Clock } from '../core/clock.js';
import type { TraceEvent } from './events.js';

type Unstamped = TraceEvent extends infer E ? (E extends TraceEvent ? Omit<E, 't' | 'step' | 'worker'> : never) : never;

export class TraceRecorder {
  readonly events: TraceEvent[] = [];
  step = 0;
  /** Many workers: the lane of the actor that moves now, stamped on what it emits (never set with one runner). */
  lane: string | undefined = undefined;
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Stamps the event it is given (each emit passes a fresh object) rather than copying it: one object per event. */
  emit(event: Unstamped): void {
    const stamped = event as TraceEvent;
    stamped.t = this.#clock.nowMs();
    stamped.step = this.step;
    if (this.lane !== undefined) stamped.worker = this.lane;
    this.events.push(stamped);
  }
}
