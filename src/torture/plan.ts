/**
 * The torture's plan (docs/spec.md §19): which worker gets which signal, and how long after the one before — drawn
 * from the seed alone, so the same seed gives the same plan. What the plan meets is real: a signal lands wherever
 * the worker's process happens to be (mid-transaction, between two statements, idle), restarts take what they
 * take, and the operating system interleaves the processes. The plan is reproducible; the run it makes is not.
 */
import { canonicalJson, sha256Hex } from '../core/canonical.js';
import { SeededRng } from '../core/rng.js';

/** One planned signal: SIGKILL (the worker is restarted), or SIGSTOP and, `pauseMs` later, SIGCONT. */
export interface PlannedSignal {
  signal: 'SIGKILL' | 'SIGSTOP';
  /** Which worker, 0-based. */
  worker: number;
  /** After the signal before it (or the start), in ms. */
  afterMs: number;
  /** SIGSTOP only: how long the worker stays stopped. */
  pauseMs?: number;
}

export interface TortureShape {
  workers: number;
  kills: number;
  pauses: number;
  leaseMs: number;
}

/**
 * The gap between two signals, in ms. A Node process with better-sqlite3 takes 60–80 ms to restart on an idle
 * machine (../shared/notes/postgres-here.md): a kill every ~100 ms keeps about one worker restarting while the others
 * work, and 1,000 kills take a couple of minutes.
 */
export const GAP_MS = { min: 20, max: 180 } as const;

/** A pause lasts from half a lease (the holder usually keeps its task) to four leases (its task goes to another). */
export const PAUSE_LEASES = { min: 0.5, max: 4 } as const;

/** The kills and pauses, interleaved, from the seed: `shape.kills` SIGKILLs and `shape.pauses` SIGSTOPs. */
export function planTorture(seed: number, shape: TortureShape): PlannedSignal[] {
  const rng = new SeededRng(`torture/${seed}`);
  const plan: PlannedSignal[] = [];
  let kills = shape.kills;
  let pauses = shape.pauses;
  while (kills + pauses > 0) {
    const worker = rng.int(0, shape.workers - 1);
    const afterMs = rng.int(GAP_MS.min, GAP_MS.max);
    // Each kind in proportion to what is left of it: the pauses spread over the whole run.
    if (rng.int(1, kills + pauses) <= kills) {
      plan.push({ signal: 'SIGKILL', worker, afterMs });
      kills -= 1;
    } else {
      const pauseMs = rng.int(Math.round(shape.leaseMs * PAUSE_LEASES.min), Math.round(shape.leaseMs * PAUSE_LEASES.max));
      plan.push({ signal: 'SIGSTOP', worker, afterMs, pauseMs });
      pauses -= 1;
    }
  }
  return plan;
}

/** A short fingerprint of a plan: two runs with the same one were dealt the same signals. */
export function planDigest(plan: readonly PlannedSignal[]): string {
  return sha256Hex(canonicalJson(plan)).slice(0, 12);
}
