/**
 * A check is a verdict on a finished run: an expectation of the scenario, an invariant of docs/spec.md §7, or
 * the scenario's own integrity (every listed fault fired). Checks are pure data so that `run`, `grade`,
 * `explore` and the classroom assertions all read the same verdicts; their words are messages (codes.ts),
 * worded by whoever shows them, in the language it is given.
 */
import type { Message } from '../core/message.js';
import type { CheckCode } from './codes.js';

/** What a check says: one of the checks' own messages. */
export type CheckMessage = Message<CheckCode>;

export type CheckKind = 'expectation' | 'invariant' | 'scenario' | 'runner';

export interface Check {
  /** Stable id, e.g. `status`, `calls`, `inv1_one_effect_per_intent`, `faults_fired`. */
  id: string;
  kind: CheckKind;
  /** What is checked, in a few words, for the trace's check list. */
  title: Message<CheckCode>;
  passed: boolean;
  expected: unknown;
  actual: unknown;
  /** One line that teaches: what was expected, what happened, why that breaks the rule. */
  message: Message<CheckCode>;
}
