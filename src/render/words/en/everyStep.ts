/**
 * The grade, sharper (issue 20): the rules about the runner's state checked after every step, the graded set's
 * new branches of the contract (a policy that gives up, the breaker's refusal, a permission revoked between two
 * attempts), and the learner's own mistakes named from the first divergence from the reference.
 */
export const everyStep = {
  // ── the fault of authorisation ──
  'trace.faultNote.revoke_permission': "the task's permission for this tool is withdrawn: this attempt was authorised already, every later one is refused",
  // ── invariant 2, after every step: the attempts of each pending action ──
  'check.inv2.attemptsOvercounted':
    'at step {step} {name} was sent as attempt {attempt}, but only {made} attempt(s) of it had been made since it was prepared: attempts counts the pending action\'s own tries — it starts again at 0 when an action is prepared',
  'check.inv2.retriedPastLimit':
    'at step {step} {name} was tried again after {failures} TransientError(s) with max_retries {max}: once the retries are spent the run ends retry_exhausted',
  // ── invariant 3, after every step: pending until its answer is recorded ──
  'check.inv3.stillPendingAfterAnswer':
    'at step {step} the runner saved #{seq} {label} with {action} still pending after the tool had answered it: clear pending in the same save that records the answer, or a crash right after that save sends the action again',
  'check.inv3.droppedUnobserved':
    'at step {step} the runner saved #{seq} {label} without {action} pending, though its answer was never recorded: a pending action is kept until the tool\'s answer is — the effect may have happened',
  // ── the learner's own mistakes, named ──
  'grade.mistake.noLine': 'no line of your file in its stack',
  'grade.mistake.finishStatusChanged.title': 'a finish saved with another status than the policy gave',
  'grade.mistake.finishStatusChanged':
    'at step {step} the policy finished with {policy}, but the step saved #{seq} {status}: a finish ends the run with the status the policy gave (succeeded or gave_up), never one the step chose',
  'grade.mistake.attemptsNotReset.title': 'attempts not reset for a new action',
  'grade.mistake.attemptsNotReset':
    'at step {step} {name} went out as attempt {attempt}, its try number {made}: it was prepared with attempts {carried}, the count of the action before — attempts counts the pending action\'s own tries, so it starts again at 0 when an action is prepared',
  'grade.mistake.notReauthorised.title': 'a retry sent without authorising it again',
  'grade.mistake.notReauthorised':
    '{what} left at step {step} after the task\'s permission for {name} was revoked: authorise the pending action again before every attempt — a key is not a permission, and a retry does not inherit one',
  'grade.mistake.transientByMessage.title': 'a TransientError told by its message text, thrown at step {step}',
  'grade.mistake.transientByMessage':
    'the step threw TransientError {message} at step {step} ({where}), though it retried {handled} before: tell a failure worth retrying by its class (isTransientError), not by its message — the breaker\'s circuit_open is one too',
  'grade.mistake.transientThrown.title': 'a TransientError thrown out of step {step}',
  'grade.mistake.transientThrown':
    'the step threw TransientError {message} at step {step} ({where}): a TransientError is a failure worth retrying, not a bug — keep the action pending, save transient:<message>, and retry it (or end retry_exhausted once the retries are spent)',
  // ── their hint ladders ──
  'hint.finishStatusChanged.question': 'Your run ended succeeded where the policy said something else. Whose status is a finish?',
  'hint.finishStatusChanged.rule':
    'A finish action carries the status the run ends with: succeeded or gave_up (rule 2). The step does not judge the task; it records what the policy decided.',
  'hint.finishStatusChanged.code': "End with the finish's own status:\n  if (action.kind === 'finish') return this.finalize(state, action.status);",
  'hint.attemptsNotReset.question': 'Your retries ran out before the action had failed max_retries times. Whose attempts does state.attempts count?',
  'hint.attemptsNotReset.rule':
    'attempts counts the tries of the pending action, the first included (rule 2): a new action starts at 0. calls counts the whole task and is never reset.',
  'hint.attemptsNotReset.code': "Where the action is prepared:\n  state.pending = this.prepare(task, action);\n  state.attempts = 0;\n  state.decisions += 1;\n  this.save(state, 'prepared');",
  'hint.notReauthorised.question': 'A retry left after the task lost its permission. When does your step authorise the pending action?',
  'hint.notReauthorised.rule':
    'Authorise when deciding, and again before every attempt (rule 5): a permission can be withdrawn between two attempts, and an idempotency key is not a permission.',
  'hint.notReauthorised.code': "Right before the request, inside the try:\n  this.authorize(task, state.pending);\n  result = this.execute(state);",
  'hint.transientByMessage.question': 'Your step retried some TransientErrors and threw another. How does it tell which failures to retry?',
  'hint.transientByMessage.rule':
    'A TransientError is told by its class, not by its message (rule 5): unavailable, lost_reply and the breaker\'s circuit_open are all worth retrying; a message is for people.',
  'hint.transientByMessage.code': "Ask the class:\n  if (isTransientError(error)) { … }",
  'hint.transientThrown.question': 'Your step threw a TransientError out of step. Is a failure worth retrying a bug?',
  'hint.transientThrown.rule':
    'A TransientError keeps the action pending and is saved as transient:<message>; the run ends retry_exhausted only when attempts > max_retries (rule 5). Only what is neither a TransientError nor a ContractError propagates.',
  'hint.transientThrown.code': "In the catch, before the ContractError branch:\n  if (isTransientError(error)) {\n    if (state.attempts > task.max_retries) state.status = 'retry_exhausted';\n    return this.save(state, `transient:${error.message}`);\n  }",
  'grade.mistake.budgetAfterPrepare.title': 'the budget checked after prepare, not before',
  'grade.mistake.budgetAfterPrepare':
    'at step {step} the step saved #{seq} {label} with {action} pending, though calls {calls} had spent max_calls {max}: with the budget spent, a decision ends the run budget_exhausted before any action is prepared — an action prepared then is one that can never be tried',
  'hint.budgetAfterPrepare.question': 'Your run ended budget_exhausted with an action still pending that was never tried. When was the budget spent: before or after your step prepared it?',
  'hint.budgetAfterPrepare.rule':
    'The budget is checked twice (rules 2 and 3): when deciding, before an action is prepared, and before every attempt. Spent at decision time, the run ends with nothing pending and no decision counted.',
  'hint.budgetAfterPrepare.code': "Right after the finish, before prepare:\n  if (state.calls >= task.max_calls) return this.finalize(state, 'budget_exhausted');\n  state.pending = this.prepare(task, action);",
} as const;
