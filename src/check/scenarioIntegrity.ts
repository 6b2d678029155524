/**
 * A scenario is only a test if its faults happen. Every listed fault must fire; one that never fired under
 * the reference runner makes a broken scenario, not a pass — under any other runner it means that runner
 * left the path the scenario was written for. A runner that throws is reported as such, with the step, and
 * a runner that catches the simulated crash fails whatever its figures: a crash ends the process.
 */
import { describeFault, listOfFaults } from '../faults/types.js';
import { isTerminal } from '../runner/state.js';
import type { Run } from '../sim/Run.js';
import type { Check } from './types.js';
import { message } from '../core/message.js';

/** The run ended on its own (a terminal status, no exception): only then does an unfired fault mean a broken scenario. */
function endedNormally(run: Run): boolean {
  return run.runnerError === null && isTerminal(run.state?.status);
}

/** The scenario's own story is told with the reference runner: only there is an unfired fault the scenario's fault. */
const REFERENCE_RUNNER = 'ReferenceRunner';

/** A listed fault never fired although the reference runner ended normally: the scenario tested nothing at that point. */
export function isBrokenScenario(run: Run): boolean {
  return run.runner === REFERENCE_RUNNER && endedNormally(run) && run.faults.some((f) => f.firedAt === null);
}

export function checkFaultsFired(run: Run): Check {
  const unfired = run.faults.filter((f) => f.firedAt === null).map((f) => describeFault(f.spec));
  const passed = unfired.length === 0;
  const early = run.runnerError ? message('check.faults.threwAt', { step: run.runnerError.step }) : message('check.faults.neverEnded');
  const faults = unfired.length > 0 ? listOfFaults(unfired) : '';
  return {
    id: 'faults_fired',
    kind: 'scenario',
    title: message('check.faults.title'),
    passed,
    expected: run.faults.length,
    actual: run.faults.length - unfired.length,
    message: passed
      ? message('check.faults.allFired', { n: run.faults.length })
      : !endedNormally(run)
        ? message('check.faults.stoppedBefore', { faults, early })
        : run.runner === REFERENCE_RUNNER
          ? message('check.faults.broken', { faults })
          : message('check.faults.leftPath', { faults }),
  };
}

/** The runner went on after a simulated crash (the trace's `crash_caught`): it fails, whatever the figures say. */
export function checkCrashLetThrough(run: Run): Check | null {
  const caught = run.trace.filter((event) => event.type === 'crash_caught');
  if (caught.length === 0) return null;
  const first = caught[0]!;
  return {
    id: 'crash_caught',
    kind: 'runner',
    title: message('check.crashCaught.title'),
    passed: false,
    expected: 'every crash let through',
    actual: `${caught.length} crash(es) caught`,
    message: message('check.crashCaught.message', { step: first.step, how: first.how }),
  };
}

export function checkRunnerError(run: Run): Check | null {
  const error = run.runnerError;
  if (error === null) return null;
  return {
    id: 'runner_error',
    kind: 'runner',
    title: message('check.runnerError.title'),
    passed: false,
    expected: 'no exception',
    // What was thrown, as data: the runner's own text, or the harness's message (worded where it is shown).
    actual: typeof error.message === 'string' ? `${error.name}: ${error.message}` : message('error.named', { name: error.name, message: error.message }),
    message: message('check.runnerError.message', { name: error.name, step: error.step, message: error.message }),
  };
}
