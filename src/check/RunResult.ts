/**
 * A judged run: the simulator's Run with its checks (src/check/verdict.ts decides which, and whether it
 * passed). Everything a user sees is computed from a judged run.
 */
import type { Run } from '../sim/Run.js';
import type { Check } from './types.js';

export type { Run, RunnerFailure } from '../sim/Run.js';

export interface RunResult extends Run {
  checks: Check[];
  passed: boolean;
}
