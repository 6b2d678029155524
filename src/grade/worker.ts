/**
 * The grader's worker thread: the only place a learner's code runs. It loads the learner's file (from its
 * TypeScript source, through tsx), says `ready`, then runs one scenario per request with the learner's class
 * inside the determinism guard and answers with the finished run. The thread can be killed at any moment:
 * it keeps nothing the grader needs (in-memory databases, no files left behind).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadRunnerClass } from '../runner/load.js';
import type { RunnerClass } from '../runner/BaseRunner.js';
import { simulate } from '../sim/simulate.js';
import { captureOutput } from './captureOutput.js';
import { guardRunner } from './guardRunner.js';
import type { FromWorker, RunRequest, ThrownInfo, WorkerInit } from './protocol.js';

const port = parentPort!;
const init = workerData as WorkerInit;
const progress = new Int32Array(init.progress);

function thrown(error: unknown): ThrownInfo {
  if (error instanceof Error) return { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  return { name: 'Error', message: `threw a non-Error value: ${String(error)}` };
}

/** Structured clone first; a learner's state holding something that cannot be cloned goes through JSON. */
function post(message: FromWorker): void {
  try {
    port.postMessage(message);
  } catch {
    port.postMessage(JSON.parse(JSON.stringify(message, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value))) as FromWorker);
  }
}

const output = captureOutput((text) => port.postMessage({ type: 'output', text } satisfies FromWorker));
let Learner: RunnerClass | null = null;
try {
  Learner = await loadRunnerClass(init.file);
  post({ type: 'ready', runnerName: Learner.name });
} catch (error) {
  post({ type: 'load_error', error: thrown(error) });
}

port.on('message', (request: RunRequest) => {
  if (Learner === null) return;
  output.reset();
  Atomics.store(progress, 0, 0);
  try {
    const runner = guardRunner(Learner, (step) => Atomics.store(progress, 0, step));
    const run = simulate(request.scenario, {
      runner,
      seed: request.seed,
      storage: 'memory',
      ...(request.maxSteps !== undefined ? { maxSteps: request.maxSteps } : {}),
    });
    post({ type: 'result', run });
  } catch (error) {
    post({ type: 'run_error', error: thrown(error) });
  }
});
