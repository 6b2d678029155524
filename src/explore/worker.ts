/**
 * A worker thread of the explorer: it resolves the runner once, then runs the tasks it is sent and posts
 * back each task's tally (plain data). Started by pool.ts; not an entry point of its own.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Scenario } from '../scenario/types.js';
import type { StorageKind } from '../core/storage.js';
import { Bases } from './fork.js';
import { onItsOwnTurn } from './ownTurn.js';
import { runTask, type Task } from './task.js';
import { targetOf, type Target } from './target.js';
import { openRunner, type RunnerSource } from '../target/runners.js';

export interface WorkerSetup {
  scenarios: Scenario[];
  source: RunnerSource;
  seed: number;
  storage: StorageKind;
  postgres?: string;
  depth: number;
  preemptions: number;
}

export type WorkerRequest = { id: number; tasks: Task[] } | { stop: true };

const setup = workerData as WorkerSetup;

// The runner is resolved once (a learner's file is loaded here); then the batches come. Not a top-level
// await: the CLI's build bundles this file as CommonJS (scripts/bundle-cli.mjs). A rejection ends the
// thread with an error, which the pool reports.
void openRunner(setup.source, setup.source.kind).then((opened) => {
  const target = targetOf(opened, setup.seed, setup.storage, setup.postgres);
  const bases = new Bases(target);
  // Several batches wait at the port at once (pool.ts): one a turn, so that crash images are freed between them.
  parentPort!.on('message', onItsOwnTurn((request: WorkerRequest) => handle(request, target, bases, () => opened.close())));
  parentPort!.postMessage({ ready: true });
});

async function handle(request: WorkerRequest, target: Target, bases: Bases, close: () => Promise<void>): Promise<void> {
  if ('stop' in request) {
    bases.close();
    await close();
    if (setup.postgres !== undefined) await (await import('../postgres/storage.js')).closeIdle(); // this thread's idle schemas
    parentPort!.close();
    return;
  }
  try {
    const tallies = [];
    for (const task of request.tasks) tallies.push((await runTask(setup.scenarios[task.scenario]!, task.first, setup.depth, target, bases, setup.preemptions)).toData());
    parentPort!.postMessage({ id: request.id, tallies });
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error) });
  }
}
