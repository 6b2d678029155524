/**
 * What a torture worker runs, by the name `--runner` gives: the reference's parts, or a mutant's (src/mutants) with
 * the reference's in the rest — the same catalogue `faultlab run --runner mutant:NAME` and `explore --mutants` use.
 */
import { InventoryTool } from '../inventory/InventoryTool.js';
import { mutantNamed } from '../mutants/catalogue.js';
import { QueueStore } from '../queue/QueueStore.js';
import { ReferenceRunner } from '../runner/ReferenceRunner.js';
import { ReferenceWorker } from '../runner/ReferenceWorker.js';
import type { WorkerParts } from './ProcessLife.js';

/** `reference`, or `mutant:NAME` (a name the catalogue knows: the CLI checked it). */
export function partsOf(runner: string): WorkerParts {
  const reference: WorkerParts = { runner: ReferenceRunner, tool: InventoryTool, queue: QueueStore, worker: ReferenceWorker };
  if (runner === 'reference') return reference;
  const mutant = mutantNamed(runner.replace(/^mutant:/, ''));
  if (mutant === undefined) throw new RangeError(`no runner ${runner}`);
  return { runner: mutant.runner, tool: mutant.tool, queue: mutant.queue ?? QueueStore, worker: mutant.worker ?? ReferenceWorker };
}
