/**
 * A scenario is only a test if its faults happen. Every listed fault must fire; one that never fired makes
 * the run a broken scenario, not a pass. And a runner that throws is reported as such, with the step.
 */
import { describeFault } from '../faults/types.js';
import type { RunResult } from '../sim/RunResult.js';
import type { Check } from './types.js';

export function checkFaultsFired(run: RunResult): Check {
  const unfired = run.faults.filter((f) => f.firedAt === null).map((f) => describeFault(f.spec));
  const passed = unfired.length === 0;
  return {
    id: 'faults_fired',
    kind: 'scenario',
    title: 'every listed fault fired',
    passed,
    expected: run.faults.length,
    actual: run.faults.length - unfired.length,
    message: passed
      ? `all ${run.faults.length} listed fault(s) fired`
      : `broken scenario: ${unfired.join('; ')} never fired — the run never reached that point, so it tested nothing there`,
  };
}

export function checkRunnerError(run: RunResult): Check | null {
  const error = run.runnerError;
  if (error === null) return null;
  return {
    id: 'runner_error',
    kind: 'runner',
    title: 'the runner did not throw',
    passed: false,
    expected: 'no exception',
    actual: `${error.name}: ${error.message}`,
    message: `the runner threw ${error.name} at step ${error.step}: ${error.message}`,
  };
}
