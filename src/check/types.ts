/**
 * A check is a verdict on a finished run: an expectation of the scenario, an invariant of SPEC §7, or the
 * scenario's own integrity (every listed fault fired). Checks are pure data so that `run`, `grade`,
 * `explore` and the classroom assertions all read the same verdicts.
 */
export type CheckKind = 'expectation' | 'invariant' | 'scenario' | 'runner';

export interface Check {
  /** Stable id, e.g. `status`, `calls`, `inv1_one_effect_per_intent`, `faults_fired`. */
  id: string;
  kind: CheckKind;
  /** What is checked, in a few words, for the trace's check list. */
  title: string;
  passed: boolean;
  expected: unknown;
  actual: unknown;
  /** One line that teaches: what was expected, what happened, why that breaks the rule. */
  message: string;
}

/** The shape `--json` prints for a failed check. */
export interface Violation {
  check: string;
  expected: unknown;
  actual: unknown;
  message: string;
}

export function toViolation(check: Check): Violation {
  return { check: check.id, expected: check.expected, actual: check.actual, message: check.message };
}
