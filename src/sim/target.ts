/**
 * What a run runs: the runner under test and the tool it meets, named the way every command names them —
 * `reference`, `learner` (src/runner/LearnerRunner.ts), `mutant:NAME` (a deliberately broken runner or
 * store, src/mutants/catalogue.ts) or the path of a .ts/.js file exporting a runner class.
 * A RunnerSource is data, so it can cross to a worker thread; `resolveTarget` turns it into classes there.
 */
import { isAbsolute, resolve } from 'node:path';
import { t } from '../core/i18n/index.js';
import type { StorageKind } from '../core/storage.js';
import type { InventoryTool, ToolDeps } from '../inventory/InventoryTool.js';
import { MUTANTS, mutantNamed } from '../mutants/catalogue.js';
import type { RunnerClass } from '../runner/BaseRunner.js';
import { LEARNER_FILE, loadRunnerClass, RunnerLoadError } from '../runner/load.js';
import { ReferenceRunner } from '../runner/ReferenceRunner.js';
import { guardRunner } from '../runner/guardRunner.js';

export type ToolClass = new (deps: ToolDeps) => InventoryTool;

export type RunnerSource =
  | { kind: 'reference' }
  /** A .ts/.js file exporting a runner class (the learner's, or any other). */
  | { kind: 'file'; file: string }
  /** One of the deliberately broken runners or stores of src/mutants/catalogue.ts. */
  | { kind: 'mutant'; name: string };

export interface ResolvedRunner {
  runner: RunnerClass;
  /** A deliberately broken store goes with some mutants. */
  tool?: ToolClass;
  /** What to call it in messages: `reference`, `learner`, `mutant:NAME` or the path as given. */
  label: string;
  /** The runner's file, absolute, when it came from one. */
  file?: string;
  source: RunnerSource;
}

export interface Target {
  runner: RunnerClass;
  tool?: ToolClass;
  seed: number;
  storage: StorageKind;
}

/** The source a `--runner` value names; throws RunnerLoadError for an unknown mutant. */
export function sourceOf(name: string | undefined, cwd: string): RunnerSource {
  if (name === undefined || name === 'reference') return { kind: 'reference' };
  if (name.startsWith('mutant:')) {
    const mutant = name.slice('mutant:'.length);
    if (mutantNamed(mutant) === undefined) {
      throw new RunnerLoadError('UNKNOWN_RUNNER', t('target.noSuchMutant', { name, known: MUTANTS.map((m) => `mutant:${m.name}`).join(', ') }));
    }
    return { kind: 'mutant', name: mutant };
  }
  return { kind: 'file', file: name === 'learner' ? LEARNER_FILE : isAbsolute(name) ? name : resolve(cwd, name) };
}

/** A `--runner` value as classes. Throws RunnerLoadError (bad input) when it names nothing runnable. */
export async function resolveRunner(name: string | undefined, cwd: string): Promise<ResolvedRunner> {
  const source = sourceOf(name, cwd);
  const label = name === undefined ? 'reference' : name;
  if (source.kind === 'reference') return { runner: ReferenceRunner, label, source };
  if (source.kind === 'mutant') {
    const mutant = mutantNamed(source.name)!;
    return { runner: mutant.runner, tool: mutant.tool, label, source };
  }
  try {
    return { runner: await loadRunnerClass(source.file), label, file: source.file, source };
  } catch (error) {
    if (error instanceof RunnerLoadError && error.code === 'NO_SUCH_FILE') throw new RunnerLoadError('NO_SUCH_FILE', t('target.noSuchRunnerFile', { label, file: source.file }));
    throw error;
  }
}

export async function resolveTarget(source: RunnerSource, options: { seed: number; storage: StorageKind }): Promise<Target> {
  if (source.kind === 'reference') return { runner: ReferenceRunner, ...options };
  if (source.kind === 'mutant') {
    const mutant = mutantNamed(source.name);
    if (mutant === undefined) throw new RunnerLoadError('UNKNOWN_RUNNER', t('target.noSuchMutantNamed', { name: source.name }));
    return { runner: mutant.runner, tool: mutant.tool, ...options };
  }
  // A runner file is a learner's code: it runs inside the determinism guard, as `run` and `grade` run it.
  return { runner: guardRunner(await loadRunnerClass(source.file)), ...options };
}
