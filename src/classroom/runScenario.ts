/**
 * `runScenario(pathOrId, { runner })` for a teacher's own vitest files: one scenario, one runner — the path of
 * a file exporting one (a learner's, run in its box with the grader's determinism guard, exactly as `faultlab
 * grade` runs it), or a runner class the harness runs itself (the reference, a mutant, any class written as the
 * reference is, with `async step`) — and the finished, judged RunResult. A learner's file keeps its box for
 * the rest of the process, so a test file with many runs starts it once. No timeout beyond the box's per-run
 * limit: vitest's own test timeout is the bound.
 */
import { resolve } from 'node:path';
import { DEFAULT_SEED } from '../core/defaults.js';
import type { RunnerClass } from '../runner/BaseRunner.js';
import { loadScenario } from '../scenario/load.js';
import type { RunResult } from '../check/RunResult.js';
import { simulate } from '../sim/simulate.js';
import { judge } from '../check/verdict.js';
import { openRunner, type OpenedRunner } from '../target/runners.js';
import { t, type Lang } from '../render/words/index.js';

export interface RunScenarioOptions {
  /** The path of a .ts/.js file that exports a runner class, or a runner class written for the harness (async step). */
  runner: RunnerClass | string;
  seed?: number;
  maxSteps?: number;
  /** The language of its error (a class with a synchronous step handed in directly): en (the default) or zh. */
  lang?: Lang;
}

/** Where a classroom run came from, for the replay command in a failed assertion's message. */
export interface RunOrigin {
  /** The runner's file, absolute, when it was given as a path. */
  runnerFile?: string;
  /** The reference run of the same scenario and seed, to say where the run first left its path. */
  reference?: RunResult;
}

const origins = new WeakMap<RunResult, RunOrigin>();

export function originOf(run: RunResult): RunOrigin {
  return origins.get(run) ?? {};
}

/** One box per runner file for the life of the process (it ends with the process). */
const boxes = new Map<string, Promise<OpenedRunner>>();

function boxFor(file: string): Promise<OpenedRunner> {
  let opened = boxes.get(file);
  if (opened === undefined) {
    opened = openRunner({ kind: 'file', file }, file);
    opened.catch(() => boxes.delete(file)); // a file that did not load is loaded again next time (it may have been fixed)
    boxes.set(file, opened);
  }
  return opened;
}

/**
 * A class handed in directly is run in this thread, so it must be written for the harness: its step is async
 * (as the reference's is). A learner's class — a synchronous step — runs in its box, which needs its file.
 */
function harnessClass(lang: Lang, runner: RunnerClass): RunnerClass {
  const step = (runner.prototype as { step?: unknown }).step;
  if (typeof step !== 'function' || step.constructor.name !== 'AsyncFunction') throw new TypeError(t(lang, 'classroom.syncClass', { name: runner.name || 'anonymous' }));
  return runner;
}

/** Run one scenario (a YAML file, or the id of one of the 17) with a runner; resolves to the finished run. */
export async function runScenario(pathOrId: string, options: RunScenarioOptions): Promise<RunResult> {
  const scenario = loadScenario(pathOrId);
  const runnerFile = typeof options.runner === 'string' ? resolve(options.runner) : undefined;
  const opened = runnerFile !== undefined ? await boxFor(runnerFile) : null;
  const simulateOptions = {
    runner: opened?.runner ?? harnessClass(options.lang ?? 'en', options.runner as RunnerClass),
    seed: options.seed ?? DEFAULT_SEED,
    ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
  };
  await opened?.beginRun();
  let run: RunResult;
  try {
    run = judge(await simulate(scenario, simulateOptions));
  } finally {
    await opened?.endRun();
  }
  const reference = judge(await simulate(scenario, { seed: simulateOptions.seed, storage: 'memory', ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}) }));
  origins.set(run, { ...(runnerFile !== undefined ? { runnerFile } : {}), reference });
  return run;
}
