/**
 * The score: one test per scenario as written, and one per scenario explored — the same scenario with one added
 * fault at every point (depth 1), passed when no such schedule breaks an invariant or lets a crash through. Both
 * count the same: 17 scenarios make 34 tests, and a submission that passes every scenario as written but breaks a
 * rule under added faults in three of them scores 31/34. With exploring turned off, the score is out of 17.
 */
import type { ScenarioGrade, SubmissionGrade } from './types.js';

export interface PartScore {
  passed: number;
  total: number;
}

const count = (grades: readonly ScenarioGrade[]): PartScore => ({ passed: grades.filter((g) => g.status === 'pass').length, total: grades.length });

export function scoreOf(submission: SubmissionGrade): { asWritten: PartScore; explored: PartScore | null; passed: number; total: number } {
  return {
    asWritten: count(submission.scenarios),
    explored: submission.explored.length > 0 ? count(submission.explored) : null,
    passed: submission.passed,
    total: submission.total,
  };
}

/** Every test of a submission, as written first. */
export function allGrades(submission: SubmissionGrade): ScenarioGrade[] {
  return [...submission.scenarios, ...submission.explored];
}

/** The first failing grade (scenarios run from the simplest, as written before explored), or null. */
export function firstFailure(submission: SubmissionGrade): ScenarioGrade | null {
  return allGrades(submission).find((g) => g.status !== 'pass') ?? null;
}

/** Schedules explored, and how many broke a rule, over every scenario. */
export function coverageOf(submission: SubmissionGrade): { schedules: number; broke: number } {
  return submission.explored.reduce((sum, g) => ({ schedules: sum.schedules + (g.coverage?.schedules ?? 0), broke: sum.broke + (g.coverage?.broke ?? 0) }), { schedules: 0, broke: 0 });
}
