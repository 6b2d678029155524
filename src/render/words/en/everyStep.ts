/**
 * The grade, sharper (issue 20): the rules about the runner's state checked after every step, the graded set's
 * new branches of the contract (a policy that gives up, the breaker's refusal, a permission revoked between two
 * attempts), and the learner's own mistakes named from the first divergence from the reference.
 */
export const everyStep = {
  // ── invariant 2, after every step: the attempts of each pending action ──
  'check.inv2.attemptsOvercounted':
    'at step {step} {name} was sent as attempt {attempt}, but only {made} attempt(s) of it had been made since it was prepared: attempts counts the pending action\'s own tries — it starts again at 0 when an action is prepared',
  'check.inv2.retriedPastLimit':
    'at step {step} {name} was tried again after {failures} TransientErrors with max_retries {max}: once the retries are spent the run ends retry_exhausted',
  // ── invariant 3, after every step: pending until its answer is recorded ──
  'check.inv3.stillPendingAfterAnswer':
    'at step {step} the runner saved #{seq} {label} with {action} still pending after the tool had answered it: clear pending in the same save that records the answer, or a crash right after that save sends the action again',
  'check.inv3.droppedUnobserved':
    'at step {step} the runner saved #{seq} {label} without {action} pending, though its answer was never recorded: a pending action is kept until the tool\'s answer is — the effect may have happened',
} as const;
