/** All the checks of a run, in the order a reader wants them: the runner's own failure, the scenario, the figures, the invariants. */
import type { Run } from '../sim/Run.js';
import { checkExpectations } from './expectations.js';
import { checkInvariants, type InvariantOptions } from './invariants.js';
import { checkCrashLetThrough, checkFaultsFired, checkRunnerError } from './scenarioIntegrity.js';
import type { Check } from './types.js';

export function runChecks(run: Run, options: InvariantOptions): Check[] {
  const runner = [checkRunnerError(run), checkCrashLetThrough(run)].filter((check): check is Check => check !== null);
  return [...runner, checkFaultsFired(run), ...checkExpectations(run), ...checkInvariants(run, options)];
}
