/**
 * What an exploration runs: the runner (and the tool it meets), the seed and the storage of every schedule,
 * and, for a runner in a box, what each run needs around it (src/target/runners.ts).
 */
import type { StorageKind } from '../core/storage.js';
import type { ToolClass } from '../inventory/InventoryTool.js';
import type { QueueClass } from '../queue/QueueStore.js';
import type { WorkerClass } from '../runner/ReferenceWorker.js';
import type { RunnerClass } from '../runner/BaseRunner.js';
import type { ConversationMemo } from '../box/memo.js';
import type { OpenedRunner, RunEnd, RunHooks } from '../target/runners.js';

export interface Target {
  runner: RunnerClass;
  tool?: ToolClass;
  /** The queue's mutants (many workers): a broken queue or worker loop. */
  queue?: QueueClass;
  worker?: WorkerClass;
  seed: number;
  storage: StorageKind;
  /** Every schedule on the PostgreSQL server at this URL, each run in a schema of its own (then never forked). */
  postgres?: string;
  /** A runner in a box: each run begins and ends through these. */
  hooks?: RunHooks;
  /** A runner in a box shown to keep nothing between steps: its conversations remembered (src/box/memo.ts). */
  memo?: ConversationMemo;
  /** How the last run ended outside its trace (what the box printed, whether it was lost): set after each run. */
  ended?: RunEnd;
}

/** An opened runner as the target of an exploration with this seed and storage. */
export function targetOf(opened: OpenedRunner, seed: number, storage: StorageKind, postgres?: string): Target {
  return {
    runner: opened.runner,
    ...(opened.tool ? { tool: opened.tool } : {}),
    ...(opened.queue ? { queue: opened.queue } : {}),
    ...(opened.worker ? { worker: opened.worker } : {}),
    seed,
    storage,
    ...(postgres !== undefined ? { postgres } : {}),
    ...(opened.hooks ? { hooks: opened.hooks } : {}),
  };
}
