/**
 * Virtual time. The simulator and the durability pillars never read the wall clock: they are handed a
 * Clock, and only the harness moves it forward. One seed and one scenario therefore give one timeline.
 */
export interface Clock {
  /** Milliseconds since the start of the run (virtual). */
  nowMs(): number;
  /** Move time forward; negative or non-finite steps are a programming error. */
  advance(ms: number): void;
}

export class VirtualClock implements Clock {
  #now: number;

  constructor(startMs = 0) {
    this.#now = startMs;
  }

  nowMs(): number {
    return this.#now;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`clock can only move forward, got ${ms} ms`);
    this.#now += ms;
  }

  /** Jump to an absolute time that is not in the past (used to wait until a deadline). */
  advanceTo(ms: number): void {
    this.advance(Math.max(0, ms - this.#now));
  }
}
