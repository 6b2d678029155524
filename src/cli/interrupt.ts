/**
 * Stopping cleanly. SIGINT (Ctrl-C) and SIGTERM remove every temporary folder of the process and release
 * what the run holds (a --keep-db folder's lock), then exit 130 or 143 — what a shell reports for a process
 * killed by that signal. A SIGKILL leaves folders behind; the next start sweeps them (core/tempDir.ts).
 *
 * A run is synchronous, and a signal handler written in JavaScript only runs once the current synchronous
 * work returns. So each scenario a learner's runner runs goes through `interruptible`, inside a script that V8
 * stops on SIGINT (vm's breakOnSigint): Ctrl-C ends even a runner stuck in a loop at once. faultlab's own
 * runners end within their step bound, so their scenarios run directly and a signal waits for the end of one.
 * SIGTERM has no such hook: it is handled between two scenarios (each is bounded by the step limit), or — for
 * a step that never returns — by the SIGKILL that usually follows it, and the next start's sweep.
 */
import { Script } from 'node:vm';
import { t } from '../core/i18n/index.js';
import { removeOwnTempDirs } from '../core/tempDir.js';

/** The run was stopped by a signal; the CLI exits with 128 + its number. */
export class Interrupted extends Error {
  override readonly name = 'Interrupted';
  readonly signal: 'SIGINT' | 'SIGTERM';

  constructor(signal: 'SIGINT' | 'SIGTERM') {
    super(t('cli.interrupted', { signal }));
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

const SLOT = '__faultlabInterruptible';

/** Compiled once: `run` goes through here once per scenario. */
let calling: Script | undefined;

/** Run synchronous work so that SIGINT stops it where it is (throws Interrupted). */
export function interruptible<T>(work: () => T): T {
  const global = globalThis as Record<string, unknown>;
  global[SLOT] = work;
  try {
    calling ??= new Script(`globalThis.${SLOT}()`, { filename: 'faultlab-run' });
    return calling.runInThisContext({ breakOnSigint: true }) as T;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED') throw new Interrupted('SIGINT');
    throw error;
  } finally {
    delete global[SLOT];
  }
}

// Taken when this module loads, before any runner file: a runner stopped mid-step by SIGINT never gets to
// put back what the determinism guard replaced (setImmediate among them).
const later = setImmediate;

/**
 * Let a signal that came during synchronous work be handled now: its handler runs in the event loop's poll
 * phase, which a single setImmediate can skip (it runs in the same turn), and two cannot.
 */
export function yieldToSignals(): Promise<void> {
  return new Promise((resolve) => later(() => later(resolve)));
}
