/**
 * Stopping cleanly. SIGINT (Ctrl-C) and SIGTERM remove every temporary folder of the process and release
 * what the run holds (a --keep-db folder's lock), then exit 130 or 143 — what a shell reports for a process
 * killed by that signal. A SIGKILL leaves folders behind; the next start sweeps them (core/tempDir.ts).
 *
 * A learner's code never runs in this process (it runs in its box, src/box), and the harness awaits the box:
 * a signal is handled at once, even while a runner is stuck in a loop, and the box is killed as the process
 * exits. faultlab's own runners and labs end within their bounds: a signal waits for the end of a step.
 */
import { removeOwnTempDirs } from '../core/tempDir.js';

/** The run was stopped by a signal; the CLI exits with 128 + its number. */
export class Interrupted extends Error {
  override readonly name = 'Interrupted';
  readonly signal: 'SIGINT' | 'SIGTERM';

  constructor(signal: 'SIGINT' | 'SIGTERM') {
    super(`interrupted by ${signal}`); // said to the user in words by report() (errors.ts)
    this.signal = signal;
  }
}

const cleanups = new Set<() => void>();

/** Run `fn` when the process stops, however it stops (signal, exit, error); returns its un-registration. */
export function onStop(fn: () => void): () => void {
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

/** Run (and forget) everything registered with onStop. Safe to call more than once. */
export function runStopHooks(): void {
  for (const fn of [...cleanups]) {
    cleanups.delete(fn);
    try {
      fn();
    } catch {
      // a clean-up that fails must not stop the others
    }
  }
}

/** On the way out of the process: the stop hooks, then every temporary folder of this process. */
export function cleanUp(): void {
  runStopHooks();
  try {
    removeOwnTempDirs();
  } catch {
    // nothing more can be done on the way out
  }
}

const later = setImmediate;

/**
 * Let a signal that came during synchronous work be handled now: its handler runs in the event loop's poll
 * phase, which a single setImmediate can skip (it runs in the same turn), and two cannot.
 */
export function yieldToSignals(): Promise<void> {
  return new Promise((resolve) => later(() => later(resolve)));
}
