/**
 * One verdict. Every command that runs a scenario — `run`, `explore`, `grade`, the classroom assertions,
 * `dlq --replay` — judges the run here, with the same checks, so a run that fails in one fails in all.
 *
 * A run can be asked one of two things, and the caller says which:
 * - `scenario`: does the scenario hold as written? Every check: the runner's own failure, a crash it let
 *   through or not, every listed fault fired, the scenario's figures, the seven invariants.
 * - `rules`: were the rules kept? What no fault may break, whatever it does to the figures: letting every
 *   crash end the process, and the seven invariants. An explored schedule (the scenario plus added faults)
 *   and the replay of a kept dead letter are judged so: the figures a scenario expects describe the scenario
 *   as written, not a run with more faults, nor a second delivery of its task.
 * A runner that throws breaks a rule too: its run never ends (invariant 7 says so, with the step).
 */
import type { Run } from '../sim/Run.js';
import { checkExpectations } from './expectations.js';
import { checkInvariants, INVARIANTS } from './invariants.js';
import { checkLimitInvariants, LIMIT_INVARIANTS } from './limits.js';
import { QUEUE_INVARIANTS } from './queueInvariants.js';
import { checkCrashLetThrough, checkFaultsFired, checkRunnerError } from './scenarioIntegrity.js';
import type { RunResult } from './RunResult.js';
import type { Check } from './types.js';

export type Question = 'scenario' | 'rules';

/**
 * The checks no schedule may fail, in the order a reader wants them: a caught crash, then the invariants (the
 * queue's six after the seven, then the limits' two: docs/spec.md §12, §13–§14).
 */
export const RULES: readonly string[] = ['crash_caught', ...INVARIANTS.map((inv) => inv.id), ...QUEUE_INVARIANTS.map((inv) => inv.id), ...LIMIT_INVARIANTS.map((inv) => inv.id)];

const RULE_RANK = new Map(RULES.map((id, i) => [id, i]));

/** Is this check one of the rules (as opposed to a figure, or the scenario's own integrity)? */
export function isRule(id: string): boolean {
  return RULE_RANK.has(id);
}

/** Order check ids (or anything with one) as RULES does; ids that are not rules go last, in their order. */
export function byRule(a: string, b: string): number {
  return (RULE_RANK.get(a) ?? RULES.length) - (RULE_RANK.get(b) ?? RULES.length);
}

/** The checks of a run for a question, in the order a reader wants them. */
export function checksOf(run: Run, question: Question): Check[] {
  const crash = checkCrashLetThrough(run);
  // docs/spec.md §13–§14: a scenario past the chapter is judged by two more (none for the 17).
  const invariants = [...checkInvariants(run, { maxSteps: run.maxSteps }), ...checkLimitInvariants(run)];
  if (question === 'rules') return crash === null ? invariants : [crash, ...invariants];
  const thrown = checkRunnerError(run);
  return [...(thrown === null ? [] : [thrown]), ...(crash === null ? [] : [crash]), checkFaultsFired(run), ...checkExpectations(run), ...invariants];
}

/** The run with its checks for the question, and whether every one held. Pure: the same run, the same verdict. */
export function judge(run: Run, question: Question = 'scenario'): RunResult {
  const checks = checksOf(run, question);
  return { ...run, checks, passed: checks.every((check) => check.passed) };
}

/** The rules a judged run broke, in RULES order. */
export function brokenRules(run: RunResult): Check[] {
  return run.checks.filter((check) => !check.passed && isRule(check.id)).sort((a, b) => byRule(a.id, b.id));
}
