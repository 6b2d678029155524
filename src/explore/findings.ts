/**
 * From an exploration to what a reader needs: for each scenario and each invariant it broke, the first
 * schedule that broke it, shrunk to the smallest fault list that still does (shrink.ts).
 */
import { byRule } from '../check/verdict.js';
import type { CheckMessage } from '../check/types.js';
import type { FaultSpec } from '../faults/types.js';
import type { Scenario, ScheduleChoice } from '../scenario/types.js';
import type { RunResult } from '../check/RunResult.js';
import type { Exploration } from './explore.js';
import { shrink } from './shrink.js';
import type { Target } from './target.js';

export interface Finding {
  scenario: Scenario;
  invariant: string;
  /** The faults the explorer had added when it first saw the invariant break. */
  found: FaultSpec[];
  /** How many schedules of this scenario broke it. */
  schedules: number;
  /** The smallest fault list (the scenario's own ones included, where needed) that breaks it. */
  minimal: FaultSpec[];
  /** Many workers: the schedule of the run that first broke it (the scenario's own on its default interleaving), and the smallest that still does with `minimal`. */
  foundSchedule: ScheduleChoice[];
  schedule: ScheduleChoice[];
  /** The invariant's message on the minimal run. */
  message: CheckMessage;
  run: RunResult;
}


export async function findingFor(scenario: Scenario, invariant: string, found: FaultSpec[], schedules: number, target: Target, foundSchedule?: ScheduleChoice[]): Promise<Finding> {
  const schedule = foundSchedule ?? scenario.workers?.schedule ?? [];
  const shrunk = await shrink(scenario, [...scenario.faults, ...found], invariant, target, schedule);
  const message = shrunk.run.checks.find((check) => check.id === invariant)!.message;
  return { scenario, invariant, found, schedules, minimal: shrunk.faults, foundSchedule: [...schedule], schedule: shrunk.schedule, message, run: shrunk.run };
}

export async function findings(exploration: Exploration): Promise<Finding[]> {
  const out: Finding[] = [];
  for (const { scenario, tally } of exploration.scenarios) {
    const broken = [...tally.violations].sort(([a], [b]) => byRule(a, b));
    for (const [invariant, first] of broken) out.push(await findingFor(scenario, invariant, first.added, first.schedules, exploration.target, first.schedule));
  }
  return out;
}
