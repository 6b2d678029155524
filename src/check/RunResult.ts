/**
 * A judged run: the simulator's Run with every check of it (SPEC §7, the scenario's figures, its integrity).
 * `judge` is a pure function of the run, so the same run is judged the same wherever it is judged — by
 * `faultlab run`, the grader, the explorer or a teacher's vitest file.
 */
import type { Run } from '../sim/Run.js';
import { runChecks } from './runChecks.js';
import type { Check } from './types.js';

export type { Run, RunnerFailure } from '../sim/Run.js';

export interface RunResult extends Run {
  checks: Check[];
  passed: boolean;
}

export function judge(run: Run): RunResult {
  const checks = runChecks(run, { maxSteps: run.maxSteps });
  return { ...run, checks, passed: checks.every((check) => check.passed) };
}
