/**
 * The grading engine: a learner's file against a list of scenarios, each graded twice — as written, and
 * explored with one added fault at every point. The learner's runner runs in its box (src/box: a process of its
 * own, killed at its time limit); the harness that drives it — the databases, the wire, the trace, the checks —
 * runs in a grading thread of this process (worker.ts), one per submission graded at once.
 * The reference runs here, once per scenario and seed; each learner run is read against it: the first problem,
 * the first divergence, the figures, the replay command and the lesson. A hang or a dead process costs that run
 * only; grading goes on.
 */
import { resolve } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { depthOneSchedules } from '../explore/enumerate.js';
import { DEFAULT_SEED, MAX_STEPS } from '../core/defaults.js';
import { msg, type Lang } from '../render/words/index.js';
import { mapText } from '../core/message.js';
import { ENVIRONMENT_ERRORS, EnvironmentError } from '../core/environment.js';
import { startWorker } from '../core/workerThread.js';
import type { Scenario } from '../scenario/types.js';
import { judge } from '../check/verdict.js';
import type { RunResult } from '../check/RunResult.js';
import { simulate } from '../sim/simulate.js';
import { checkTitle } from './diagnose.js';
import { referenceStep } from './divergence.js';
import { submissionName } from './findSubmissions.js';
import { gradeExplored, notExplored } from './gradeExplored.js';
import { gradeRun, gradeWithoutRun, type GradeContext } from './gradeRun.js';
import type { FromHarness, Go, GradeJob, RunOutcome, ToHarness } from './job.js';
import { Explorations } from './explorations.js';
import { outcomeProblem } from './outcomeProblem.js';
import { SHIPPED_RUNNER, type ThrownInfo } from '../box/protocol.js';
import { displayPath } from './replay.js';
import type { Problem, ScenarioGrade, SubmissionGrade } from './types.js';

/** The box's limits (src/box/Box.ts): per run, and for loading the file. */
export { DEFAULT_RUN_TIMEOUT_MS as DEFAULT_TIMEOUT_MS, DEFAULT_LOAD_TIMEOUT_MS } from '../box/Box.js';
import { DEFAULT_RUN_TIMEOUT_MS as DEFAULT_TIMEOUT_MS, DEFAULT_LOAD_TIMEOUT_MS } from '../box/Box.js';
/** The longest --timeout: a day. */
export const MAX_TIMEOUT_MS = 86_400_000;
/** Where the replay files of explored failures go, under the working directory, one folder per submission. */
export const DEFAULT_REPLAY_DIR = 'faultlab-grade';

export interface GradeOptions {
  scenarios: readonly Scenario[];
  /** `--db postgres…`: the learner's runs on this PostgreSQL server (the reference's, which only give the figures to compare with, on SQLite). */
  postgres?: string;
  /** The second exercise's scenarios (many workers): graded instead when the file holds a worker (src/runner/LearnerWorker.ts). */
  workerScenarios?: readonly Scenario[];
  seed?: number;
  /** How long one run may take before the learner's process is killed (ms). */
  timeoutMs?: number;
  loadTimeoutMs?: number;
  maxSteps?: number;
  /** Paths in messages are shown relative to this folder (default: the process's). */
  cwd?: string;
  /** Explore every scenario after running it as written (default true). */
  explore?: boolean;
  /** Where replay files of explored failures go (default `faultlab-grade/<name>` under cwd); null: none are written. */
  replayDir?: string | null;
  /** The submission's name in a class (default: from its path, see findSubmissions). */
  name?: string;
  /** Told of each grade as soon as it is made, in order: every scenario as written, then every one explored. */
  onScenario?: (grade: ScenarioGrade, index: number) => void;
  /** Told how many scenarios the submission is graded on, once its file has said what it holds, before any grade. */
  onCount?: (count: number) => void;
  /** Told when its grading starts and stops waiting for another submission's exploration of the same runs (explorations.ts). */
  onWait?: (waiting: boolean) => void;
  /**
   * Grading threads for this submission (default 1): with two, each with its box, the scenarios are explored
   * half each (a submission graded alone, on a machine with a core to spare).
   */
  threads?: number;
  /** Reference runs, shared between submissions graded together. */
  references?: ReferenceRuns;
  /**
   * The explorations already made (the reference's, and submissions' that ran clean), shared likewise
   * (explorations.ts); null: none — every scenario of every submission is explored run by run.
   */
  explorations?: Explorations | null;
  /**
   * A submission whose code is faultlab's own ReferenceRunner or a mutant is named as such and not graded; with
   * this, it is graded like any other (the agreement tests grade the mutants from files).
   */
  acceptShipped?: boolean;
  /**
   * The language of the lessons the grade points to and of its replay commands (default en). The grade's words
   * are messages: a reporter words them in the language it is given.
   */
  lang?: Lang;
}

/** The reference run of each scenario, made once per seed and kept for every submission (a run is data, in no language). */
export class ReferenceRuns {
  readonly #runs = new Map<string, Promise<RunResult>>();

  get(scenario: Scenario, seed: number, maxSteps: number): Promise<RunResult> {
    const key = `${scenario.file ?? scenario.id}\0${seed}\0${maxSteps}`;
    let run = this.#runs.get(key);
    if (run === undefined) {
      run = simulate(scenario, { seed, storage: 'memory', maxSteps }).then((done) => judge(done));
      this.#runs.set(key, run);
    }
    return run;
  }
}

function brokenScenario(reference: RunResult): Problem {
  const first = reference.checks.find((c) => !c.passed)!;
  const failure = first.kind === 'invariant' ? msg('grade.broken.check', { title: checkTitle(first), message: first.message }) : first.message;
  return { id: 'reference_fails', title: msg('grade.broken.title'), message: msg('grade.broken.message', { failure }) };
}

/** A load error, with the learner's absolute path shown as they typed it. */
function loadProblem(error: ThrownInfo, file: string, shownFile: string): Problem {
  const message = mapText(error.message, (text) => text.split(file).join(shownFile));
  // Not the learner's own step: faultlab's reference or a mutant, handed in (src/box/compile.ts finds it; the
  // grading thread says so as a message, which no text a box sends can be).
  if (error.name === SHIPPED_RUNNER && typeof message !== 'string') return { id: 'load_error', title: msg('box.shipped.title', { file: shownFile }), message };
  return { id: 'load_error', title: msg('grade.load.title', { file: shownFile }), message: msg('grade.load.message', { file: shownFile, message }) };
}

function fromOutcome(outcome: RunOutcome, reference: RunResult, index: number, ctx: GradeContext, timeoutMs: number): ScenarioGrade {
  const scenario = reference.scenario;
  if (outcome.kind === 'done') return gradeRun(outcome.run, reference, index, ctx, outcome);
  const problem = outcomeProblem(outcome, timeoutMs);
  const step = outcome.kind === 'crashed' ? 0 : outcome.step;
  const divergence = outcome.kind !== 'crashed' && step > 0 ? referenceStep(reference, step, outcome.kind === 'timeout' ? 'hung' : 'died') : null;
  return gradeWithoutRun(scenario, index, problem, ctx, { divergence, output: outcome.output, durationMs: outcome.durationMs });
}

/** A grading thread for one submission: `on` is told each of its messages; `done` resolves when it has ended. */
function startHarness(job: GradeJob, on: (message: FromHarness, thread: Worker) => void): { thread: Worker; done: Promise<ThrownInfo | null> } {
  const thread = startWorker(import.meta.url, 'grade', { workerData: job });
  const done = new Promise<ThrownInfo | null>((settle) => {
    let failure: ThrownInfo | null = null;
    thread.on('message', (message: FromHarness) => {
      if (message.type === 'failed') failure = message.error;
      else on(message, thread);
    });
    thread.on('error', (error) => (failure = { name: error.name, message: error.message }));
    thread.on('exit', () => settle(failure));
  });
  return { thread, done };
}

/**
 * The scenarios to explore, shared between `threads` threads by their cost (the reference's schedules, a fair
 * guess of the learner's): the heaviest first, each to the thread with least to do; the first thread also runs
 * every scenario as written.
 */
export function shareExploring(costs: readonly (number | null)[], threads: number): number[][] {
  const shares = Array.from({ length: threads }, () => ({ load: 0, indices: [] as number[] }));
  shares[0]!.load = costs.length * 4; // the runs as written, each a few explored schedules' worth (its box is not remembered)
  const order = costs.map((cost, index) => ({ cost, index })).filter((c) => c.cost !== null);
  order.sort((a, b) => b.cost! - a.cost! || a.index - b.index);
  for (const { cost, index } of order) {
    const least = shares.reduce((a, b) => (b.load < a.load ? b : a));
    least.load += cost!;
    least.indices.push(index);
  }
  return shares.map((share) => share.indices.sort((a, b) => a - b));
}

export async function gradeSubmission(file: string, options: GradeOptions): Promise<SubmissionGrade> {
  const cwd = options.cwd ?? process.cwd();
  const absolute = resolve(cwd, file);
  const shownFile = displayPath(absolute, cwd);
  const name = options.name ?? submissionName(absolute);
  const seed = options.seed ?? DEFAULT_SEED;
  const ctx: GradeContext = { file: absolute, runnerArg: shownFile, seed, cwd, lang: options.lang ?? 'en' };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxSteps = options.maxSteps ?? MAX_STEPS;
  const explore = options.explore ?? true;
  const references = options.references ?? new ReferenceRuns();
  // The reference's explorations are recorded meanwhile (a grading thread holds the learner's runner to them).
  const explorations = explore && options.postgres === undefined && maxSteps === MAX_STEPS && options.explorations !== null ? (options.explorations ?? new Explorations(Math.max(1, options.threads ?? 1))) : null;
  explorations?.prepare(options.scenarios, seed);
  const replayDir = options.replayDir === null ? null : resolve(cwd, options.replayDir ?? DEFAULT_REPLAY_DIR, ...(options.replayDir === undefined ? [name] : []));
  // The grading threads start at once: each opens its box and says what the file holds (a runner, or a worker);
  // the reference's runs of the runner's scenarios are made meanwhile.
  const referencesOf = (list: readonly Scenario[]) => Promise.all(list.map((scenario) => references.get(scenario, seed, maxSteps)));
  const runnerRefs = referencesOf(options.scenarios);
  runnerRefs.catch(() => {});

  let scenarios: Scenario[] = [...options.scenarios];
  let refs: RunResult[] = [];
  // Grades arrive out of order (broken scenarios are known at once); they are told in order, once the list is known.
  let fixed: Array<ScenarioGrade | undefined> = [];
  let explored: Array<ScenarioGrade | undefined> = [];
  let known = false;
  const sequence = () => [...fixed, ...(explore ? explored : [])];
  let told = 0;
  const tell = () => {
    if (!known) return;
    const all = sequence();
    while (told < all.length && all[told] !== undefined) {
      options.onScenario?.(all[told]!, told);
      told += 1;
    }
  };
  /** The file's kind is known (or it never will be): the list, its count told, the broken scenarios graded at once. */
  const know = (list: readonly Scenario[], listRefs: RunResult[]) => {
    scenarios = [...list];
    refs = listRefs;
    fixed = refs.map((ref, index) => (ref.passed ? undefined : gradeWithoutRun(scenarios[index]!, index, brokenScenario(ref), ctx)));
    explored = refs.map((ref, index) => (!explore ? undefined : ref.passed ? undefined : { ...fixed[index]!, part: 'explored' as const }));
    known = true;
    options.onCount?.(scenarios.length);
    tell();
  };

  let runnerName: string | null = null;
  let loadError: ThrownInfo | null = null;
  let loadedKind: 'runner' | 'worker' | undefined;
  const job: GradeJob = {
    file: absolute,
    scenarios: [...options.scenarios],
    ...(options.workerScenarios !== undefined ? { workerScenarios: [...options.workerScenarios] } : {}),
    seed,
    maxSteps,
    explore,
    timeoutMs,
    loadTimeoutMs: options.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS,
    acceptShipped: options.acceptShipped ?? false,
    ...(options.postgres !== undefined ? { postgres: options.postgres } : {}),
    reuse: explorations !== null,
  };
  const pending: Array<Promise<void>> = [];
  const threads: Worker[] = [];
  // Told once, by the first thread that loads the file: what it holds, and so which scenarios; then each thread's share.
  let chosen: Promise<{ skip: boolean[]; shares: number[][] }> | null = null;
  const choose = async (kind: 'runner' | 'worker') => {
    const list = kind === 'worker' ? options.workerScenarios! : options.scenarios;
    const listRefs = kind === 'worker' ? await referencesOf(list) : await runnerRefs;
    know(list, listRefs);
    const skip = listRefs.map((ref) => !ref.passed);
    const costs = listRefs.map((ref) => (ref.passed ? (list[0]?.workers !== undefined ? 1 : depthOneSchedules(ref).length) : null));
    return { skip, shares: shareExploring(costs, threads.length) };
  };
  const on = (message: FromHarness, thread: Worker) => {
    if (message.type === 'loaded') {
      runnerName = message.runnerName;
      chosen ??= choose(message.kind);
      const share = threads.indexOf(thread);
      chosen.then(
        ({ skip, shares }) => thread.postMessage({ type: 'go', skip, fixed: share === 0, explore: explore ? shares[share]! : [] } satisfies Go),
        () => void thread.terminate(),
      );
      return;
    }
    if (message.type === 'load_error') {
      // Each thread loads the same file: one that could not is the file's failure, whatever another graded.
      loadError ??= message.error;
      if (message.kind !== undefined) loadedKind ??= message.kind;
      return;
    }
    if (message.type === 'ask') {
      const { index, asWritten, after } = message;
      if (explorations === null) return void thread.postMessage({ type: 'sets', index, sets: [], explore: true } satisfies ToHarness);
      void explorations.sets(scenarios[index]!, seed, asWritten, after, thread, options.onWait).then(({ sets, explore }) => thread.postMessage({ type: 'sets', index, sets, explore } satisfies ToHarness));
      return;
    }
    if (message.type === 'recorded') {
      explorations?.recorded(scenarios[message.index]!, seed, message.asWritten, message.set);
      return;
    }
    if (message.type === 'fixed') fixed[message.index] = fromOutcome(message.outcome, refs[message.index]!, message.index, ctx, timeoutMs);
    else if (message.type === 'explored') {
      const { index, explored: found, reason } = message;
      const scenario = scenarios[index]!;
      if (found === null) explored[index] = notExplored(scenario, index, reason ?? msg('grade.notExplored.notRun'), ctx);
      else {
        // Its divergence is read against the reference run of the same schedule, made here.
        const who = msg('grade.who', { runner: runnerName ?? msg('grade.who.unknown'), file: shownFile });
        const graded = gradeExplored(scenario, index, found, { ...ctx, replayDir, who, maxSteps, timeoutMs }).then((grade) => {
          explored[index] = grade;
          tell();
        });
        pending.push(graded);
      }
    }
    tell();
  };
  const count = Math.max(1, options.threads ?? 1);
  const started = Array.from({ length: count }, () => startHarness(job, on));
  threads.push(...started.map((s) => s.thread));
  // A thread that ended is making no exploration another waits for.
  const failures = await Promise.all(started.map((s) => s.done.finally(() => explorations?.release(s.thread))));
  const failure = failures.find((f) => f !== null) ?? null;
  // The file never loaded: graded on the scenarios of what it was seen to hold (a worker refused for its fence), else a runner's.
  if (!known) know(loadedKind === 'worker' ? options.workerScenarios! : options.scenarios, loadedKind === 'worker' ? await referencesOf(options.workerScenarios!) : await runnerRefs);
  if (chosen !== null) await chosen;
  await Promise.all(pending);
  // The machine failed the grade (a full disk): nothing more is judged, and no learner is blamed for it.
  if (failure !== null && ENVIRONMENT_ERRORS.has(failure.name)) throw new EnvironmentError(failure.message);

  // Whatever the grading thread could not grade: a file that did not load, or the thread's own failure.
  const shownError = loadError === null ? null : { ...(loadError as ThrownInfo), message: mapText((loadError as ThrownInfo).message, (text) => text.split(absolute).join(shownFile)) };
  const missing: Problem =
    loadError !== null
      ? loadProblem(loadError, absolute, shownFile)
      : { id: 'worker_crash', title: msg('grade.failed.title'), message: msg('grade.failed.message', { message: failure?.message ?? msg('grade.failed.stoppedEarly') }) };
  scenarios.forEach((scenario, index) => {
    fixed[index] ??= gradeWithoutRun(scenario, index, missing, ctx);
    if (explore) explored[index] ??= loadError !== null ? notExplored(scenario, index, msg('grade.notExplored.notLoaded'), ctx) : { ...gradeWithoutRun(scenario, index, missing, ctx), part: 'explored' };
  });
  tell();
  const grades = fixed as ScenarioGrade[];
  const exploredGrades = explore ? (explored as ScenarioGrade[]) : [];
  const all = [...grades, ...exploredGrades];
  return {
    file: shownFile,
    name,
    runnerName,
    loadError: shownError,
    scenarios: grades,
    explored: exploredGrades,
    passed: all.filter((g) => g.status === 'pass').length,
    total: all.length,
  };
}

/** Several submissions, a few at a time (each has its own grading thread and process); results in the order given. */
export async function gradeSubmissions(
  files: readonly string[],
  options: GradeOptions & {
    concurrency?: number;
    /** Each submission's name (default: from its path). */
    names?: readonly string[];
    /** Where each submission's replay files go, by name (default: as GradeOptions.replayDir says). */
    replayDirFor?: (name: string) => string | null;
    /** Told of each submission as its grading starts. */
    onStart?: (index: number) => void;
    /** Told of each submission as soon as it is graded (in the order they finish). */
    onSubmission?: (grade: SubmissionGrade, index: number) => void;
  },
): Promise<SubmissionGrade[]> {
  const references = options.references ?? new ReferenceRuns();
  const explorations = options.explorations === null ? null : (options.explorations ?? new Explorations(Math.max(1, Math.min(2, options.concurrency ?? 1))));
  const results: SubmissionGrade[] = new Array<SubmissionGrade>(files.length);
  // `concurrency` submissions are graded at once — counting only those that are busy: one that waits for another's
  // exploration of the same runs (explorations.ts) lends its place to the next, up to twice as many alive at once.
  const concurrency = Math.max(1, options.concurrency ?? 1);
  let next = 0;
  let busy = 0;
  let alive = 0;
  let settle: (error?: unknown) => void = () => {};
  const finished = new Promise<void>((resolve, reject) => (settle = (error) => (error === undefined ? resolve() : reject(error))));
  let failed = false;
  const start = () => {
    while (!failed && busy < concurrency && alive < 2 * concurrency && next < files.length) launch(next++);
    if (alive === 0 && (next >= files.length || failed)) settle();
  };
  const launch = (index: number) => {
    busy += 1;
    alive += 1;
    const name = options.names?.[index] ?? submissionName(resolve(options.cwd ?? process.cwd(), files[index]!));
    const replayDir = options.replayDirFor !== undefined ? options.replayDirFor(name) : options.replayDir;
    options.onStart?.(index);
    let waiting = false;
    const onWait = (now: boolean) => {
      if (now === waiting) return;
      waiting = now;
      busy += now ? -1 : 1;
      if (now) start();
    };
    gradeSubmission(files[index]!, { ...options, references, explorations, onScenario: undefined, onWait, name, ...(replayDir !== undefined ? { replayDir } : {}) }).then(
      (grade) => {
        results[index] = grade;
        options.onSubmission?.(grade, index);
        if (!waiting) busy -= 1;
        alive -= 1;
        start();
      },
      (error: unknown) => {
        failed = true;
        settle(error);
      },
    );
  };
  start();
  await finished;
  return results;
}
