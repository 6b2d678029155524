/**
 * What the grader and its worker thread say to each other. The worker loads the learner's file, then runs
 * one scenario per request and answers with the finished run (or with what went wrong). Everything here is
 * plain data: it crosses a thread boundary by structured clone.
 */
import type { Scenario } from '../scenario/types.js';
import type { Run } from '../sim/Run.js';

export interface WorkerInit {
  /** Absolute path of the learner's file. */
  file: string;
  /** One Int32: the step the current run is in (the watchdog reads it when a run hangs). */
  progress: SharedArrayBuffer;
}

export interface RunRequest {
  type: 'run';
  scenario: Scenario;
  seed: number;
  maxSteps?: number;
}

/** Something the learner's code threw (or that broke while running it), as text. */
export interface ThrownInfo {
  name: string;
  message: string;
  stack?: string;
}

export type FromWorker =
  | { type: 'ready'; runnerName: string }
  | { type: 'load_error'; error: ThrownInfo }
  /** What the learner's code printed, as it prints it. */
  | { type: 'output'; text: string }
  | { type: 'result'; run: Run }
  | { type: 'run_error'; error: ThrownInfo };
