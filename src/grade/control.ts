/**
 * The hard wall-clock limit. The grading thread that drives a learner's process blocks in a read while the
 * learner's code runs, so it cannot time itself; the grader's main thread watches it instead, through a few
 * shared integers: which run is under way (a counter), what phase it is in, which step, and the process id.
 * When a run has not moved on within its limit, the main thread claims it (compare-and-swap: running →
 * killed), SIGKILLs the process — which ends a busy loop, a blocked system call, `execSync('sleep 50')` — and
 * opens the other ends of its FIFOs, so that a read or an open waiting on a dead process returns. Whoever
 * wins the swap decides: a run the grading thread settled first was not killed.
 */
import { closeSync, constants, openSync } from 'node:fs';
import { join } from 'node:path';

const SEQ = 0;
const PHASE = 1;
const STEP = 2;
const PID = 3;
const GENERATION = 4;
const SLOTS = 5;

export const Phase = { idle: 0, loading: 1, running: 2, killed: 3 } as const;
type PhaseValue = (typeof Phase)[keyof typeof Phase];

/** The FIFOs of the learner process of one generation: the grader writes `toLearner`, reads `fromLearner`. */
export function fifoPaths(dir: string, generation: number): { toLearner: string; fromLearner: string } {
  return { toLearner: join(dir, `${generation}.to-learner`), fromLearner: join(dir, `${generation}.from-learner`) };
}

export function newControlBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT);
}

/** The grading thread's side. */
export class RunControl {
  readonly #cells: Int32Array;

  constructor(buffer: SharedArrayBuffer) {
    this.#cells = new Int32Array(buffer);
  }

  /** A new learner process is starting (its FIFOs are those of `generation`); loading is timed from now. */
  loading(pid: number, generation: number): void {
    Atomics.store(this.#cells, PID, pid);
    Atomics.store(this.#cells, GENERATION, generation);
    this.#begin(Phase.loading);
  }

  /** A run begins (or, for a process that was already killed, nothing: the kill stands). */
  running(): void {
    this.#begin(Phase.running);
  }

  step(n: number): void {
    Atomics.store(this.#cells, STEP, n);
  }

  get currentStep(): number {
    return Atomics.load(this.#cells, STEP);
  }

  /** End the timed phase. Returns false when the watchdog killed the process first. */
  settle(): boolean {
    const phase = Atomics.load(this.#cells, PHASE);
    if (phase === Phase.killed) return false;
    if (phase === Phase.idle) return true;
    return Atomics.compareExchange(this.#cells, PHASE, phase, Phase.idle) === phase;
  }

  /** After a kill has been handled (the process is gone): back to idle. */
  clearKill(): void {
    Atomics.store(this.#cells, PHASE, Phase.idle);
  }

  #begin(phase: PhaseValue): void {
    const current = Atomics.load(this.#cells, PHASE);
    if (current === Phase.killed) return;
    if (Atomics.compareExchange(this.#cells, PHASE, current, phase) !== current) return; // killed just now
    Atomics.store(this.#cells, STEP, 0);
    Atomics.add(this.#cells, SEQ, 1);
  }
}

interface Watched {
  cells: Int32Array;
  dir: string;
  loadTimeoutMs: number;
  timeoutMs: number;
  seq: number;
  since: number;
}

/** How often the main thread looks (ms): a limit is kept to within this. */
const TICK_MS = 20;

/**
 * The main thread's side: one timer for every learner process being graded. This is the grader's watchdog,
 * so it reads real time (the simulator never does).
 */
export class Watchdog {
  readonly #watched = new Set<Watched>();
  #timer: NodeJS.Timeout | null = null;

  /** Watch one grading thread's runs; returns the function that stops watching. */
  watch(buffer: SharedArrayBuffer, limits: { dir: string; loadTimeoutMs: number; timeoutMs: number }): () => void {
    const entry: Watched = { cells: new Int32Array(buffer), ...limits, seq: -1, since: 0 };
    this.#watched.add(entry);
    this.#timer ??= setInterval(() => this.#tick(), TICK_MS);
    return () => {
      this.#watched.delete(entry);
      if (this.#watched.size === 0 && this.#timer !== null) {
        clearInterval(this.#timer);
        this.#timer = null;
      }
    };
  }

  #tick(): void {
    const now = performance.now();
    for (const w of this.#watched) {
      const phase = Atomics.load(w.cells, PHASE);
      if (phase === Phase.killed) {
        poke(w);
        continue;
      }
      if (phase !== Phase.loading && phase !== Phase.running) continue;
      const seq = Atomics.load(w.cells, SEQ);
      if (seq !== w.seq) {
        w.seq = seq;
        w.since = now;
        continue;
      }
      const limit = phase === Phase.loading ? w.loadTimeoutMs : w.timeoutMs;
      if (now - w.since <= limit) continue;
      if (Atomics.compareExchange(w.cells, PHASE, phase, Phase.killed) !== phase) continue; // settled meanwhile
      try {
        process.kill(Atomics.load(w.cells, PID), 'SIGKILL');
      } catch {
        // already gone
      }
      poke(w);
    }
  }
}

/** Open (without waiting) and close the other end of each FIFO: a blocked open or read on a dead process returns. */
function poke(w: Watched): void {
  const { toLearner, fromLearner } = fifoPaths(w.dir, Atomics.load(w.cells, GENERATION));
  for (const [path, flags] of [
    [fromLearner, constants.O_WRONLY | constants.O_NONBLOCK],
    [toLearner, constants.O_RDONLY | constants.O_NONBLOCK],
  ] as const) {
    try {
      closeSync(openSync(path, flags));
    } catch {
      // no one is waiting on it (ENXIO), or it is gone
    }
  }
}
