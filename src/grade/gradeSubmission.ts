/**
 * The grading engine: a learner's file against a list of scenarios. The learner's code runs in a worker
 * thread, one scenario at a time and each within a bounded time; the reference runs here, once per
 * scenario and seed, and each learner run is read against it — the first problem, the first divergence,
 * the figures, the replay command and the lesson. A hang or a dead thread costs that scenario only: a
 * fresh worker takes the next one.
 */
import { resolve } from 'node:path';
import { DEFAULT_SEED, MAX_STEPS } from '../core/defaults.js';
import type { Scenario } from '../scenario/types.js';
import type { RunResult } from '../check/RunResult.js';
import { simulate } from '../sim/simulate.js';
import { checkTitle } from './diagnose.js';
import { referenceStep } from './divergence.js';
import { gradeRun, gradeWithoutRun, type GradeContext } from './gradeRun.js';
import { LearnerWorker, type ScenarioOutcome } from './LearnerWorker.js';
import type { ThrownInfo } from './protocol.js';
import { displayPath } from './replay.js';
import type { Problem, ScenarioGrade, SubmissionGrade } from './types.js';
import { judge } from '../check/RunResult.js';

/** Per scenario: far above what any of the 17 needs (a few milliseconds), short enough to wait out. */
export const DEFAULT_TIMEOUT_MS = 3000;
/** Loading a file with tsx takes about half a second; a cold cache on a slow machine, a few. */
export const DEFAULT_LOAD_TIMEOUT_MS = 20_000;

export interface GradeOptions {
  scenarios: readonly Scenario[];
  seed?: number;
  /** How long one scenario may run before the learner's thread is stopped (ms). */
  timeoutMs?: number;
  loadTimeoutMs?: number;
  maxSteps?: number;
  /** Paths in messages are shown relative to this folder (default: the process's). */
  cwd?: string;
  /** Told of each scenario as soon as it is graded (for a report that streams). */
  onScenario?: (grade: ScenarioGrade, index: number) => void;
  /** Reference runs, shared between submissions graded together. */
  references?: ReferenceRuns;
}

/** The reference run of each scenario, made once per seed and kept for every submission. */
export class ReferenceRuns {
  readonly #runs = new Map<string, RunResult>();

  get(scenario: Scenario, seed: number, maxSteps: number): RunResult {
    const key = `${scenario.file ?? scenario.id}\0${seed}\0${maxSteps}`;
    let run = this.#runs.get(key);
    if (run === undefined) {
      run = judge(simulate(scenario, { seed, storage: 'memory', maxSteps }));
      this.#runs.set(key, run);
    }
    return run;
  }
}

function fromOutcome(outcome: ScenarioOutcome, reference: RunResult, index: number, ctx: GradeContext): ScenarioGrade {
  const scenario = reference.scenario;
  if (outcome.kind === 'done') return gradeRun(outcome.run, reference, index, ctx, outcome);
  if (outcome.kind === 'timeout') {
    const where = outcome.step === 0 ? 'the runner was being built (its constructor) and never got to step 1' : `step ${outcome.step} never returned`;
    const problem: Problem = {
      id: 'timeout',
      title: `timeout in step ${outcome.step}`,
      message: `no answer after ${outcome.timeoutMs} ms: ${where} — the grader stopped it (an endless loop, or a wait for something that never comes?)`,
    };
    const hung = outcome.step > 0 ? referenceStep(reference, outcome.step) : null;
    return gradeWithoutRun(scenario, index, problem, ctx, { divergence: hung === null ? null : { step: outcome.step, text: hung }, output: outcome.output, durationMs: outcome.durationMs });
  }
  const problem: Problem = { id: 'worker_crash', title: outcome.error.name, message: `the run stopped with ${outcome.error.name}: ${outcome.error.message}` };
  return gradeWithoutRun(scenario, index, problem, ctx, outcome);
}

function brokenScenario(reference: RunResult): Problem {
  const first = reference.checks.find((c) => !c.passed)!;
  return {
    id: 'reference_fails',
    title: 'broken scenario',
    message: `this scenario is broken — the reference runner fails it too (${first.kind === 'invariant' ? `${checkTitle(first)}: ` : ''}${first.message}); no runner can pass it`,
  };
}

/** A load error, with the learner's absolute path shown as they typed it. */
function loadProblem(error: ThrownInfo, file: string, shownFile: string): Problem {
  const message = error.message.split(file).join(shownFile);
  return { id: 'load_error', title: `could not load ${shownFile}`, message: `could not load ${shownFile}: ${message}` };
}

export async function gradeSubmission(file: string, options: GradeOptions): Promise<SubmissionGrade> {
  const cwd = options.cwd ?? process.cwd();
  const absolute = resolve(cwd, file);
  const shownFile = displayPath(absolute, cwd);
  const ctx: GradeContext = { file: absolute, runnerArg: shownFile, seed: options.seed ?? DEFAULT_SEED, cwd };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxSteps = options.maxSteps ?? MAX_STEPS;
  const references = options.references ?? new ReferenceRuns();
  const grades: ScenarioGrade[] = [];
  let worker: LearnerWorker | null = null;
  let runnerName: string | null = null;
  let loadError: ThrownInfo | null = null;

  const record = (grade: ScenarioGrade) => {
    options.onScenario?.(grade, grades.length);
    grades.push(grade);
  };

  try {
    for (const [index, scenario] of options.scenarios.entries()) {
      const reference = references.get(scenario, ctx.seed, maxSteps);
      if (!reference.passed) {
        record(gradeWithoutRun(scenario, index, brokenScenario(reference), ctx));
        continue;
      }
      if (loadError === null && worker === null) {
        const started = await LearnerWorker.start(absolute, options.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS);
        if (started.kind === 'load_error') loadError = started.error;
        else ({ worker, runnerName } = started);
      }
      if (worker === null) {
        record(gradeWithoutRun(scenario, index, loadProblem(loadError!, absolute, shownFile), ctx));
        continue;
      }
      const outcome = await worker.run(scenario, ctx.seed, timeoutMs, options.maxSteps);
      if (outcome.kind !== 'done') {
        await worker.terminate(); // a hung or dead thread is not reused: the next scenario gets a fresh one
        worker = null;
      }
      record(fromOutcome(outcome, reference, index, ctx));
    }
  } finally {
    await (worker as LearnerWorker | null)?.terminate();
  }
  return {
    file: shownFile,
    runnerName,
    loadError: loadError === null ? null : { ...loadError, message: loadError.message.split(absolute).join(shownFile) },
    scenarios: grades,
    passed: grades.filter((g) => g.status === 'pass').length,
    total: grades.length,
  };
}

/** Several submissions, a few at a time (each has its own thread); results in the order given. */
export async function gradeSubmissions(files: readonly string[], options: GradeOptions & { concurrency?: number }): Promise<SubmissionGrade[]> {
  const references = options.references ?? new ReferenceRuns();
  const results: SubmissionGrade[] = new Array<SubmissionGrade>(files.length);
  let next = 0;
  const lane = async () => {
    while (next < files.length) {
      const index = next++;
      results[index] = await gradeSubmission(files[index]!, { ...options, references });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 1, files.length)) }, lane));
  return results;
}
