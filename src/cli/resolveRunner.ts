/**
 * `--runner reference | learner | mutant:NAME | PATH`. The learner's file is loaded from its TypeScript source with tsx,
 * so an edit shows up at the next run with no build step. Runner classes are recognised by shape (a
 * class whose prototype has `step`), not by identity: a file loaded from source has its own copy of
 * BaseRunner, and that is fine.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../paths.js';
import type { ToolDeps, InventoryTool } from '../inventory/InventoryTool.js';
import { MUTANTS } from '../mutants/catalogue.js';
import type { RunnerClass } from '../runner/BaseRunner.js';
import { ReferenceRunner } from '../runner/ReferenceRunner.js';
import { UsageError } from './io.js';

export const LEARNER_FILE = join(PACKAGE_ROOT, 'src', 'runner', 'LearnerRunner.ts');

export interface ResolvedRunner {
  runner: RunnerClass;
  /** A deliberately broken store goes with some mutants. */
  tool?: new (deps: ToolDeps) => InventoryTool;
  /** What to call it in messages: `reference`, `learner` or the file path. */
  label: string;
  file?: string;
}

export async function resolveRunner(name: string | undefined, cwd: string): Promise<ResolvedRunner> {
  if (name === undefined || name === 'reference') return { runner: ReferenceRunner, label: 'reference' };
  if (name.startsWith('mutant:')) {
    const mutant = MUTANTS.find((m) => m.name === name.slice('mutant:'.length));
    if (mutant === undefined) throw new UsageError(`--runner ${name}: no such mutant (known: ${MUTANTS.map((m) => `mutant:${m.name}`).join(', ')})`);
    return { runner: mutant.runner, tool: mutant.tool, label: name };
  }
  const file = name === 'learner' ? LEARNER_FILE : isAbsolute(name) ? name : resolve(cwd, name);
  if (!existsSync(file)) {
    throw new UsageError(`--runner ${name}: no such file ${file} (use reference, learner, mutant:NAME, or a path to a .ts/.js file exporting a runner class)`);
  }
  return { runner: await loadRunnerClass(file), label: name === 'learner' ? 'learner' : name, file };
}

export async function loadRunnerClass(file: string, exportName?: string): Promise<RunnerClass> {
  return runnerClassFrom((await importModule(file)) as Record<string, unknown>, file, exportName);
}

/** The runner class among a module's exports (for a module imported some other way, e.g. by vitest). */
export function runnerClassFrom(module: Record<string, unknown>, file: string, exportName?: string): RunnerClass {
  const pick = exportName !== undefined ? module[exportName] : pickRunner(module);
  if (typeof pick !== 'function' || typeof (pick as { prototype?: { step?: unknown } }).prototype?.step !== 'function') {
    const found = Object.keys(module).join(', ') || 'nothing';
    throw new UsageError(`${file}: no runner class found (a class with a step(state) method); it exports ${found}`);
  }
  return pick as RunnerClass;
}

function pickRunner(module: Record<string, unknown>): unknown {
  const isRunner = (v: unknown) => typeof v === 'function' && typeof (v as { prototype?: { step?: unknown } }).prototype?.step === 'function';
  for (const preferred of ['LearnerRunner', 'default', 'Runner']) if (isRunner(module[preferred])) return module[preferred];
  return Object.values(module).find(isRunner);
}

async function importModule(file: string): Promise<unknown> {
  if (/\.[cm]?ts$/.test(file)) {
    const { tsImport } = await import('tsx/esm/api');
    return tsImport(pathToFileURL(file).href, import.meta.url);
  }
  return import(pathToFileURL(file).href);
}
