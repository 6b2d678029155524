/**
 * `runScenario(pathOrId, { runner })` for a teacher's own vitest files: one scenario, one runner — a class
 * or the path of a file exporting one (loaded from TypeScript source, as `faultlab grade` loads it) — and
 * the finished RunResult. The runner runs in this thread inside the same determinism guard as in the grader,
 * so a step that reads the clock fails the same way in both. No timeout here: vitest's own test timeout is
 * the bound.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadRunnerClass, runnerClassFrom } from '../runner/load.js';
import { DEFAULT_SEED } from '../core/defaults.js';
import { guardRunner } from '../runner/guardRunner.js';
import type { RunnerClass } from '../runner/BaseRunner.js';
import { loadScenario } from '../scenario/load.js';
import type { RunResult } from '../check/RunResult.js';
import { simulate } from '../sim/simulate.js';
import { judge } from '../check/verdict.js';

export interface RunScenarioOptions {
  /** A runner class, or the path of a .ts/.js file that exports one. */
  runner: RunnerClass | string;
  seed?: number;
  maxSteps?: number;
}

/** Where a classroom run came from, for the replay command in a failed assertion's message. */
export interface RunOrigin {
  /** The runner's file, absolute, when it was given as a path. */
  runnerFile?: string;
}

const origins = new WeakMap<RunResult, RunOrigin>();

export function originOf(run: RunResult): RunOrigin {
  return origins.get(run) ?? {};
}

/**
 * A runner file, imported the way the caller's own code is when that can load it (under vitest, TypeScript
 * included, with stack traces that point at the learner's real lines); otherwise from source through tsx —
 * which also finds the imports of a LearnerRunner.ts handed in away from src/runner/.
 */
async function importRunner(file: string): Promise<RunnerClass> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    try {
      return await loadRunnerClass(file);
    } catch {
      throw error;
    }
  }
  return runnerClassFrom(module, file);
}

/** Run one scenario (a YAML file, or the id of one of the 17) with a runner; resolves to the finished run. */
export async function runScenario(pathOrId: string, options: RunScenarioOptions): Promise<RunResult> {
  const scenario = loadScenario(pathOrId);
  const runnerFile = typeof options.runner === 'string' ? resolve(options.runner) : undefined;
  const Runner = runnerFile !== undefined ? await importRunner(runnerFile) : (options.runner as RunnerClass);
  const run = judge(simulate(scenario, {
    runner: guardRunner(Runner),
    seed: options.seed ?? DEFAULT_SEED,
    ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
  }));
  origins.set(run, runnerFile !== undefined ? { runnerFile } : {});
  return run;
}
