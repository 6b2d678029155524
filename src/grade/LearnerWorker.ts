/**
 * The grader's side of a worker thread that runs one learner's file. Every wait is bounded: loading the
 * file, and each scenario. A scenario that does not answer in time (an endless loop in `step`, a step that
 * never returns) gets the thread killed — `terminate` stops even a busy loop — and is reported with the
 * step it was in; the grader then starts a fresh worker for the next scenario.
 *
 * This is the grader's watchdog, so it reads real time (the simulator inside the worker never does).
 */
import { Worker } from 'node:worker_threads';
import type { Scenario } from '../scenario/types.js';
import { judge, type RunResult } from '../check/RunResult.js';
import type { FromWorker, RunRequest, ThrownInfo, WorkerInit } from './protocol.js';
import { startWorker } from '../core/workerThread.js';

/** Heap limit for a learner's thread, so a runaway allocation ends one scenario, not the grader (MB). */
const LEARNER_HEAP_MB = 512;

export type ScenarioOutcome =
  | { kind: 'done'; run: RunResult; output: string; durationMs: number }
  /** The learner's code did not answer within the time; `step` is the step it was in (0: before the first). */
  | { kind: 'timeout'; step: number; timeoutMs: number; output: string; durationMs: number }
  /** The thread died or the harness itself failed around the learner's code. */
  | { kind: 'crashed'; error: ThrownInfo; output: string; durationMs: number };

export type StartOutcome = { kind: 'ready'; worker: LearnerWorker; runnerName: string } | { kind: 'load_error'; error: ThrownInfo };

function spawn(init: WorkerInit): Worker {
  return startWorker(import.meta.url, 'grade', { workerData: init, resourceLimits: { maxOldGenerationSizeMb: LEARNER_HEAP_MB }, stdout: true, stderr: true });
}

export class LearnerWorker {
  readonly #worker: Worker;
  readonly #progress: Int32Array;
  #listener: ((message: FromWorker) => void) | null = null;
  #onExit: ((error: ThrownInfo) => void) | null = null;
  #exited = false;

  private constructor(worker: Worker, progress: Int32Array) {
    this.#worker = worker;
    this.#progress = progress;
    worker.on('message', (message: FromWorker) => this.#listener?.(message));
    worker.on('error', (error) => this.#onExit?.({ name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) }));
    worker.on('exit', (code) => {
      this.#exited = true;
      this.#onExit?.({ name: 'WorkerExit', message: `the learner's thread stopped (exit code ${code}) — did the code call process.exit()?` });
    });
  }

  /** Start a thread and load the learner's file in it; resolves when it is ready or could not load. */
  static start(file: string, loadTimeoutMs: number): Promise<StartOutcome> {
    const progress = new SharedArrayBuffer(4);
    const worker = new LearnerWorker(spawn({ file, progress }), new Int32Array(progress));
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        void worker.terminate();
        resolve({ kind: 'load_error', error: { name: 'Timeout', message: `loading the file took longer than ${loadTimeoutMs} ms (does it run an endless loop when it is imported?)` } });
      }, loadTimeoutMs);
      const settle = (outcome: StartOutcome) => {
        clearTimeout(timer);
        worker.#listener = null;
        worker.#onExit = null;
        if (outcome.kind === 'load_error') void worker.terminate();
        resolve(outcome);
      };
      worker.#listener = (message) => {
        if (message.type === 'ready') settle({ kind: 'ready', worker, runnerName: message.runnerName });
        else if (message.type === 'load_error') settle({ kind: 'load_error', error: message.error });
      };
      worker.#onExit = (error) => settle({ kind: 'load_error', error });
    });
  }

  /** Run one scenario; never rejects, never waits longer than `timeoutMs`. */
  run(scenario: Scenario, seed: number, timeoutMs: number, maxSteps?: number): Promise<ScenarioOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise((resolve) => {
      if (this.#exited) {
        resolve({ kind: 'crashed', error: { name: 'WorkerExit', message: "the learner's thread is gone" }, output: '', durationMs: 0 });
        return;
      }
      let output = '';
      const timer = setTimeout(() => {
        const step = Atomics.load(this.#progress, 0);
        settle({ kind: 'timeout', step, timeoutMs, output, durationMs: elapsed() });
      }, timeoutMs);
      const settle = (outcome: ScenarioOutcome) => {
        clearTimeout(timer);
        this.#listener = null;
        this.#onExit = null;
        resolve(outcome);
      };
      this.#listener = (message) => {
        if (message.type === 'output') output += message.text;
        else if (message.type === 'result') settle({ kind: 'done', run: judge(message.run), output, durationMs: elapsed() });
        else if (message.type === 'run_error') settle({ kind: 'crashed', error: message.error, output, durationMs: elapsed() });
      };
      this.#onExit = (error) => settle({ kind: 'crashed', error, output, durationMs: elapsed() });
      const request: RunRequest = { type: 'run', scenario, seed, ...(maxSteps !== undefined ? { maxSteps } : {}) };
      this.#worker.postMessage(request);
    });
  }

  /** Kill the thread (a busy loop included). */
  async terminate(): Promise<void> {
    this.#listener = null;
    this.#onExit = null;
    if (!this.#exited) await this.#worker.terminate();
  }
}
