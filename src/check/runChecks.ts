/** All the checks of a run, in the order a reader wants them: the runner's own failure, the scenario, the figures, the invariants. */
import type { Run } from '../sim/Run.js';
import { checkExpectations } from './expectations.js';
import { checkInvariants, type InvariantOptions } from './invariants.js';
import { checkFaultsFired, checkRunnerError } from './scenarioIntegrity.js';
import type { Check } from './types.js';

export function runChecks(run: Run, options: InvariantOptions): Check[] {
  const runnerError = checkRunnerError(run);
  return [...(runnerError ? [runnerError] : []), checkFaultsFired(run), ...checkExpectations(run), ...checkInvariants(run, options)];
}
