/**
 * A scenario's second grade: the same scenario with one added fault at every point (src/explore's depth 1), run
 * by the learner's runner and judged by the invariants — a fault may change the figures a scenario expects, but
 * it must never break a rule. A pass says how many schedules held; a failure names the smallest schedule that
 * breaks a rule, the mistake behind it, where it leaves the reference's path under the same faults, and the
 * replay file that shows it whole.
 */
import { judge } from '../check/verdict.js';
import { describeFaults, type FaultSpec } from '../faults/types.js';
import { withFaults } from '../explore/shrink.js';
import { brokeOn, writeReplay } from '../explore/replayFile.js';
import type { Scenario } from '../scenario/types.js';
import { simulate } from '../sim/simulate.js';
import { firstProblem } from './diagnose.js';
import { firstDivergence } from './divergence.js';
import { isHeldOut, lessonPath, scenarioArg, type GradeContext } from './gradeRun.js';
import type { Explored, RunOutcome } from './job.js';
import { displayPath, replayCommand } from './replay.js';
import type { Problem, ScenarioGrade } from './types.js';
import { outcomeProblem } from './outcomeProblem.js';
import { msg, msgn, type Message } from '../render/words/index.js';
import { NOTHING_PRINTED } from '../box/captureOutput.js';

export interface ExploredContext extends GradeContext {
  /** Where the replay file of a failing schedule is written; null: none is. */
  replayDir: string | null;
  /** Who broke it, for the replay file's header (worded there in each language). */
  who: Message;
  maxSteps: number;
  timeoutMs: number;
}

function base(scenario: Scenario, index: number, ctx: GradeContext): Pick<ScenarioGrade, 'part' | 'id' | 'title' | 'taskId' | 'summary' | 'heldOut' | 'workers'> {
  const own = scenario.faults.length > 0 ? msg('grade.explored.own', { faults: describeFaults(scenario.faults) }) : '';
  return {
    part: 'explored',
    id: scenario.id,
    title: scenario.title,
    taskId: scenario.order ?? index + 1,
    summary: msg('grade.explored.summary', { own }),
    ...(isHeldOut(scenario, ctx.cwd) ? { heldOut: true as const } : {}),
    ...(scenario.workers !== undefined ? { workers: true as const } : {}),
  };
}

/** A schedule in words: `lost_reply with transient at reserve attempt 1`, or the scenario with no fault at all. */
function schedule(id: string, faults: readonly FaultSpec[]): Message {
  return faults.length === 0 ? msg('grade.explored.withNoFault', { id }) : msg('grade.explored.with', { id, faults: describeFaults(faults) });
}

function notRun(scenario: Scenario, index: number, problem: Problem, ctx: GradeContext, extra: Partial<ScenarioGrade> = {}): ScenarioGrade {
  return {
    ...base(scenario, index, ctx),
    status: 'error',
    problem,
    wrongFigures: [],
    figures: null,
    divergence: null,
    replay: replayCommand(scenarioArg(scenario, ctx), ctx.runnerArg, ctx.seed, ctx.lang),
    lesson: lessonPath(problem, scenario.id, ctx),
    output: NOTHING_PRINTED,
    durationMs: 0,
    ...extra,
  };
}

/** A scenario that was not explored, and why (its run as written did not end, the file did not load, …). */
export function notExplored(scenario: Scenario, index: number, reason: Message, ctx: GradeContext): ScenarioGrade {
  return notRun(scenario, index, { id: 'not_explored', title: msg('grade.notExplored.title'), message: msg('grade.notExplored.message', { reason }) }, ctx);
}

export async function gradeExplored(scenario: Scenario, index: number, explored: Explored, ctx: ExploredContext): Promise<ScenarioGrade> {
  const coverage = { schedules: explored.schedules, broke: explored.broke, ...(explored.heldTo !== undefined ? { sameRunsAs: explored.heldTo } : {}) };
  const counted = msgn('grade.explored.schedules', explored.schedules);
  if (explored.stopped !== null) {
    const { schedule: stopped, outcome } = explored.stopped;
    const problem = outcomeProblem(outcome as Exclude<RunOutcome, { kind: 'done' }>, ctx.timeoutMs);
    const at = schedule(scenario.id, stopped);
    return notRun(scenario, index, { ...problem, message: msg('grade.explored.while', { at, message: problem.message }) }, ctx, {
      coverage,
      figures: msg('grade.explored.stoppedAfter', { counted }),
      replay: replayCommand(scenarioArg(scenario, ctx), ctx.runnerArg, ctx.seed, ctx.lang),
      output: outcome.output,
      durationMs: explored.durationMs,
    });
  }
  const finding = explored.finding;
  if (finding === null) {
    return {
      ...base(scenario, index, ctx),
      status: 'pass',
      problem: null,
      wrongFigures: [],
      figures: msg(explored.heldTo !== undefined ? `grade.explored.noneBroke.${explored.heldTo}` : 'grade.explored.noneBroke', { counted }),
      divergence: null,
      replay: replayCommand(scenarioArg(scenario, ctx), ctx.runnerArg, ctx.seed, ctx.lang),
      lesson: lessonPath(null, scenario.id, ctx),
      output: NOTHING_PRINTED,
      durationMs: explored.durationMs,
      coverage,
    };
  }
  const minimal = schedule(scenario.id, finding.minimal);
  let problem: Problem | null = null;
  let divergence = null;
  if (finding.run !== null) {
    problem = firstProblem(finding.run, ctx.file, (path) => displayPath(path, ctx.cwd), [finding.check]);
    const reference = judge(await simulate(withFaults(scenario, finding.minimal), { seed: ctx.seed, storage: 'memory', maxSteps: ctx.maxSteps }));
    divergence = firstDivergence(reference, finding.run);
  }
  problem ??= { id: finding.check as Problem['id'], title: finding.check, message: finding.message, check: finding.check };
  const file = ctx.replayDir === null ? undefined : writeReplay(ctx.lang, { scenario, faults: finding.minimal, invariant: finding.check, broke: brokeOn(finding.run, finding.check, finding.message), who: ctx.who, command: 'faultlab grade' }, ctx.replayDir);
  return {
    ...base(scenario, index, ctx),
    status: 'fail',
    problem: { ...problem, message: msg('grade.explored.finding', { schedule: minimal, message: problem.message }) },
    wrongFigures: [],
    figures: msg('grade.explored.broke', { broke: explored.broke, counted }),
    divergence,
    replay: file !== undefined ? replayCommand(displayPath(file, ctx.cwd), ctx.runnerArg, ctx.seed, ctx.lang) : replayCommand(scenarioArg(scenario, ctx), ctx.runnerArg, ctx.seed, ctx.lang),
    lesson: lessonPath(problem, scenario.id, ctx),
    output: NOTHING_PRINTED,
    durationMs: explored.durationMs,
    coverage,
    ...(file !== undefined ? { replayFile: displayPath(file, ctx.cwd) } : {}),
  };
}
