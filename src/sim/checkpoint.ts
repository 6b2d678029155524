/**
 * A run paused between two steps, to be resumed with more faults added — how the explorer forks a schedule
 * from the run it shares its beginning with instead of replaying that beginning (SimulateOptions.resume).
 *
 * Why it is exact: a fault changes nothing before its point, so the run of `faults + [extra]` is the run of
 * `faults` up to the first request or saved event where `extra` can strike. Resuming from any checkpoint
 * taken before that point, with `extra` added unfired, therefore gives the very run a fresh start would.
 * It takes everything a run's future depends on: the committed rows of both databases, the runner's
 * state, the clock, the draws made from each random stream, which faults fired, the wire's counters, the
 * trace so far and the step and crash counts. It can leave out the runner instance only when the runner
 * keeps nothing between steps (the reference runner; see `forkable`), and it is taken only when neither
 * database has a transaction open, so the images are exactly what was committed.
 *
 * The crash model is untouched: a resumed run starts on connections holding exactly the committed rows.
 */
import { SeededRng } from '../core/rng.js';
import type { FiredAt } from '../faults/FaultPlan.js';
import type { KnownEvent } from '../runner/EventStore.js';
import type { RunnerState } from '../runner/state.js';
import type { TraceEvent } from './events.js';
import type { UnsavedStep } from './Run.js';
import type { WireCounters } from './FaultyNetwork.js';
import type { Content } from './keptConnections.js';

export interface Checkpoint {
  /** How many trace events the run had emitted: the checkpoint comes before the event at this index. */
  readonly traceLength: number;
  /** The run's trace (the checkpoint reads only its first `traceLength` events, which never change). */
  readonly trace: readonly TraceEvent[];
  /** The harness step last stamped on the trace, the steps taken and the crashes recovered so far. */
  readonly step: number;
  readonly steps: number;
  readonly crashes: number;
  /** The runner's state, as the next step will be handed it (a copy each resume copies again). */
  readonly state: RunnerState;
  readonly clockMs: number;
  /** Values drawn so far from each random stream. */
  readonly draws: { readonly wire: number; readonly tool: number };
  /** Where each planned fault fired, in plan order (null: not yet). */
  readonly fired: ReadonlyArray<FiredAt | null>;
  readonly counters: Readonly<WireCounters>;
  /** The runner's last committed event at the pause (the world's `lastSaved`). */
  readonly lastSaved: { seq: number; json: string; state: RunnerState } | null;
  /** The runner's steps so far that left a state its log would not rebuild. */
  readonly unsaved: readonly UnsavedStep[];
  /** The events the harness saw committed so far (the log read at the end reuses their states). */
  readonly committed: ReadonlyMap<number, KnownEvent>;
  /** Both databases' committed rows. */
  readonly content: Content;
}

/** A seeded stream that counts its draws, so that a resumed run can pick it up where the paused one was. */
export class CountingRng extends SeededRng {
  draws = 0;

  /** The stream `seed` after `draws` values were taken from it. */
  static after(seed: string, draws: number): CountingRng {
    const rng = new CountingRng(seed);
    for (let i = 0; i < draws; i += 1) rng.next();
    return rng;
  }

  override next(): number {
    this.draws += 1;
    return super.next();
  }
}
