/**
 * One scenario's grade, read from what happened: a finished learner run against the reference run of
 * the same scenario and seed, or a run that never finished (a hang, a dead thread, a file that would not
 * load). Pure: the engine and the classroom assertions both read runs this way.
 */
import { msg, type Lang } from '../render/words/index.js';
import { existsSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { describeFaults } from '../faults/types.js';
import { PACKAGE_ROOT, SCENARIOS_DIR } from '../core/paths.js';
import type { Scenario } from '../scenario/types.js';
import type { RunResult } from '../check/RunResult.js';
import { figuresMessage } from '../render/renderText.js';
import { expectedFigures, firstProblem, wrongFigures } from './diagnose.js';
import { firstDivergence } from './divergence.js';
import { lessonFor } from './lessons.js';
import { displayPath, replayCommand } from './replay.js';
import type { Problem, ScenarioGrade } from './types.js';
import { NOTHING_PRINTED, type Printed } from '../box/captureOutput.js';

/** Who is graded, and how paths are shown to them. */
export interface GradeContext {
  /** The learner's file, absolute (to find their lines in a stack trace); undefined for a class given in code. */
  file: string | undefined;
  /** How the runner is named in the replay command: the file as the user typed it, or a placeholder. */
  runnerArg: string;
  seed: number;
  /** Paths in messages are relative to this folder. */
  cwd: string;
  /**
   * The language of the grade, for what is not a message: the lesson to read (each language has its own), the
   * replay command's `--lang`. The grade's words are messages, worded by the reporters.
   */
  lang: Lang;
}

type Identity = Omit<ScenarioGrade, 'status' | 'wrongFigures' | 'figures' | 'divergence' | 'output' | 'durationMs'>;

/** A scenario from outside the package's own scenarios/ folder: a teacher's held-out case. */
export function isHeldOut(scenario: Scenario, cwd: string): boolean {
  return scenario.file !== undefined && !resolve(cwd, scenario.file).startsWith(SCENARIOS_DIR + sep);
}

/** The path of a scenario's file as the user would type it (its id for a scenario built in code). */
export function scenarioArg(scenario: Scenario, ctx: GradeContext): string {
  return scenario.file !== undefined ? displayPath(resolve(ctx.cwd, scenario.file), ctx.cwd) : scenario.id;
}

/**
 * The lesson for a problem (or the scenario's own), as a path from the working directory: in the grade's
 * language, where that lesson is written in it (else the English one).
 */
export function lessonPath(problem: Problem | null, scenarioId: string, ctx: GradeContext): string {
  const inLang = lessonFor(problem?.id ?? null, scenarioId, ctx.lang);
  const lesson = existsSync(join(PACKAGE_ROOT, 'lessons', inLang.split('#')[0]!)) ? inLang : lessonFor(problem?.id ?? null, scenarioId, 'en');
  return displayPath(join(PACKAGE_ROOT, 'lessons', lesson), ctx.cwd);
}

/** What every grade of a scenario says, whatever happened: its name, number, replay command and lesson. */
export function identity(scenario: Scenario, index: number, problem: Problem | null, ctx: GradeContext): Identity {
  return {
    part: 'as_written',
    id: scenario.id,
    title: scenario.title,
    taskId: scenario.order ?? index + 1,
    summary: msg('grade.summary', { faults: describeFaults(scenario.faults), figures: expectedFigures(scenario) }),
    ...(isHeldOut(scenario, ctx.cwd) ? { heldOut: true } : {}),
    problem,
    replay: replayCommand(scenarioArg(scenario, ctx), ctx.runnerArg, ctx.seed, ctx.lang),
    lesson: lessonPath(problem, scenario.id, ctx),
  };
}

/** A run that finished, read against the reference (without one, no divergence is told). */
export function gradeRun(run: RunResult, reference: RunResult | null, index: number, ctx: GradeContext, extra: { output?: Printed; durationMs?: number } = {}): ScenarioGrade {
  const divergence = run.passed || reference === null ? null : firstDivergence(reference, run);
  const problem = firstProblem(run, ctx.file, (path) => displayPath(path, ctx.cwd), undefined, divergence);
  return {
    ...identity(run.scenario, index, problem, ctx),
    status: run.passed ? 'pass' : run.runnerError !== null ? 'error' : 'fail',
    wrongFigures: wrongFigures(run),
    figures: figuresMessage(run),
    divergence,
    output: extra.output ?? NOTHING_PRINTED,
    durationMs: extra.durationMs ?? 0,
  };
}

/** A scenario that produced no run to read: only its problem can be told. */
export function gradeWithoutRun(scenario: Scenario, index: number, problem: Problem, ctx: GradeContext, extra: Partial<Pick<ScenarioGrade, 'divergence' | 'output' | 'durationMs'>> = {}): ScenarioGrade {
  return {
    ...identity(scenario, index, problem, ctx),
    status: 'error',
    wrongFigures: [],
    figures: null,
    divergence: extra.divergence ?? null,
    output: extra.output ?? NOTHING_PRINTED,
    durationMs: extra.durationMs ?? 0,
  };
}
