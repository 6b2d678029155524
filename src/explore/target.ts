/**
 * What is explored: a runner (and the tool it runs against), with the seed and storage of every run.
 * A RunnerSource can cross to a worker thread (it is data); a class cannot, so `resolveTarget` turns the
 * one into the other on each side.
 */
import { MUTANTS } from '../mutants/catalogue.js';
import type { RunnerClass } from '../runner/BaseRunner.js';
import { ReferenceRunner } from '../runner/ReferenceRunner.js';
import type { ToolClass } from '../sim/simulate.js';
import type { StorageKind } from '../sim/storage.js';

export type RunnerSource =
  | { kind: 'reference' }
  /** A .ts/.js file exporting a runner class (the learner's, or any other). */
  | { kind: 'file'; file: string }
  /** One of the deliberately broken runners or stores of src/mutants/catalogue.ts. */
  | { kind: 'mutant'; name: string };

export interface Target {
  runner: RunnerClass;
  tool?: ToolClass;
  seed: number;
  storage: StorageKind;
}

export function mutantByName(name: string) {
  const mutant = MUTANTS.find((m) => m.name === name);
  if (mutant === undefined) throw new Error(`no mutant named ${name} (known: ${MUTANTS.map((m) => m.name).join(', ')})`);
  return mutant;
}

export async function resolveTarget(source: RunnerSource, options: { seed: number; storage: StorageKind }): Promise<Target> {
  if (source.kind === 'reference') return { runner: ReferenceRunner, ...options };
  if (source.kind === 'mutant') {
    const mutant = mutantByName(source.name);
    return { runner: mutant.runner, tool: mutant.tool, ...options };
  }
  const { loadRunnerClass } = await import('../cli/resolveRunner.js');
  return { runner: await loadRunnerClass(source.file), ...options };
}
