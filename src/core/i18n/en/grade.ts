/**
 * The grader's diagnoses (src/grade): the mistake read from the trace, an exception, a hang or a dead
 * process, a broken scenario, the figures a run got wrong, where a run first left the reference's path, a
 * scenario explored with one added fault at every point — and the few sentences of the learner's process
 * (the determinism guard, the grader's channel) and of finding a class's submissions.
 */
export const grade = {
  // ── a run's first problem (diagnose.ts) ──
  'grade.figure.wrong': '{title} expected {expected}, got {actual}',
  'grade.thrown.title': '{name} at step {step}',
  'grade.thrown.message': 'the runner threw {name} at step {step}: {message}',
  'grade.thrown.messageAt': 'the runner threw {name} at step {step} ({where}): {message}',
  'grade.faultNotReached.title': "the scenario's fault never fired",
  'grade.faultNotReached.message': '{what}: your run never reached the point where it strikes, so this scenario tested nothing there',
  'grade.problemLine': '{title} — {message}',

  // ── the classic mistakes (mistakes.ts) ──
  'grade.mistake.crashCaught.title': 'a crash caught by the step',
  'grade.mistake.newKeyPerAttempt.title': 'a new key on a retry',
  'grade.mistake.argsChangedOnRetry.title': 'args changed on a retry',
  'grade.mistake.contractErrorRetried.title': 'a ContractError retried',
  'grade.mistake.budgetCheckedLate.title': 'the budget checked late, or never',
  'grade.mistake.clearedAfterSave.title': 'pending cleared after the save',
  'grade.mistake.clearedAfterSave': 'step {step} saved #{seq} with {action} still pending, then cleared pending without saving again: until the next save the log says the action is pending, and a crash right after #{seq} makes a new runner send it again — clear pending first, then save the observation',
  'grade.mistake.savedLate.title': 'an attempt sent before it was saved',
  'grade.mistake.pendingDropped.title': 'pending dropped after a TransientError',
  'grade.mistake.lostReplyAsFailure.title': 'a lost reply treated as a failure',
  'grade.mistake.transientAsFailure.title': 'a TransientError treated as a failure',
  'grade.mistake.call': 'call {call} ({name})',
  'grade.mistake.callAttempt': 'call {call} ({name} attempt {attempt})',
  'grade.mistake.nothingSaved': 'nothing saved yet',
  'grade.mistake.aRefusal': 'a refusal',
  'grade.mistake.whose.saved': 'the saved pending action',
  'grade.mistake.whose.first': 'its first attempt (call {call})',
  'grade.mistake.crashCaught':
    "the step went on after the simulated crash ({how}): a crash ends the process, and only TransientError and ContractError are the step's to handle",
  'grade.mistake.budgetCheckedLate':
    '{what} was request {requests} on the wire with max_calls {max}: the budget must be checked before every attempt — a retry of an action already pending included',
  'grade.mistake.savedLate.nothingPending':
    '{what} left while the last saved event ({saved}) has nothing pending: save prepared — the action with its key — before the request leaves, or a crash in flight loses the intent',
  'grade.mistake.savedLate.notCounted':
    '{what} left while the last saved event ({saved}) still says calls {calls}, attempt {attempts}: save attempt_started with the call counted before the request leaves — after a crash in flight the new runner would not know this attempt was made',
  'grade.mistake.contractErrorRetried':
    '{what} sent again the very request the tool refused with ContractError {code}: a refusal is definite — the same request gets the same answer, and each retry only burns the budget',
  'grade.mistake.newKeyPerAttempt':
    '{what} used key {key}, but {whose} had {before}: a retry must reuse the key made when the action was prepared — to the ledger, a new key is a new intent',
  'grade.mistake.argsChangedOnRetry':
    '{what} sent {action}, but {whose} was {before}: a retry must carry the pending action unchanged — under one key, other args are another request (PAYLOAD_CONFLICT)',
  'grade.mistake.told.definite': 'a TransientError on {tool} (definite: the tool never ran)',
  'grade.mistake.told.indefinite': 'a lost reply on {tool} (indefinite: the effect may have happened)',
  'grade.mistake.endedRun':
    'after {told} the step ended the run with {status}: a TransientError is not a refusal — keep the action pending and retry it with the same key; only when its retries are spent is the run retry_exhausted',
  'grade.mistake.gaveUpEarly':
    'after {told} the step gave up (retry_exhausted) after attempt {attempts}, with {left} attempt(s) of max_retries {max} left: retry it with the same key until they are spent',
  'grade.mistake.pendingDropped.definite':
    'after {told} the step saved {label} with nothing pending: the action never ran, and now it never will — keep pending until the tool answers',
  'grade.mistake.pendingDropped.indefinite':
    'after {told} the step saved {label} with nothing pending: the effect may have happened, and only a retry with the same key can fetch its receipt — keep pending until the tool answers',

  // ── where a run first leaves the reference's path (divergence.ts) ──
  'grade.diverge.step': 'step {step}',
  'grade.diverge.stepSeq': 'step {step} (#{seq})',
  'grade.diverge.bothSaved': '{at}: both saved {label}, but {difference}',
  'grade.diverge.differ': '{at}: {reference}, {yours}',
  'grade.diverge.reference': 'the reference',
  'grade.diverge.yours': 'yours',
  'grade.diverge.subject': '{who} {what}',
  'grade.diverge.nothingMore': 'had nothing more',
  'grade.diverge.saved': 'saved {label}{detail}',
  'grade.diverge.sent': 'sent {action}',
  'grade.diverge.crashed': 'crashed here ({message})',
  'grade.diverge.threw': 'threw {name}: {message}',
  'grade.diverge.referenceEnded': "the reference's run ended with status {status}",
  'grade.diverge.yoursStillRunning': 'your run saved nothing more and stopped still running after {steps} steps',
  'grade.diverge.yoursEnded': 'your run ended with status {status} without saving it',
  'grade.diverge.detail.paren': ' ({text})',
  'grade.diverge.detail.attempt': ' ({name} attempt {attempts}, call {calls})',
  'grade.diverge.detail.pending': ' ({name} pending)',
  'grade.diverge.detail.nothingPending': ' (nothing pending)',
  'grade.diverge.noPendingAction': 'no pending action',
  'grade.diverge.nothing': 'nothing',
  'grade.diverge.state.minePendingOnly': 'yours still has {action} pending, the reference has nothing pending',
  'grade.diverge.state.referencePendingOnly': 'yours has nothing pending, the reference still has {action} pending',
  'grade.diverge.state.otherAction': 'yours has {action} pending, the reference {reference}',
  'grade.diverge.state.newKey': 'your {name} has a new key {key}, the reference kept {reference}',
  'grade.diverge.state.otherPending': "your pending action is {action}, the reference's {reference}",
  'grade.diverge.state.field': "your {field} is {value}, the reference's {reference}",
  'grade.diverge.state.observation': "your observation of {name} is {value}, the reference's {reference}",
  'grade.diverge.state.result': "your result is {value}, the reference's {reference}",
  'grade.diverge.state.task': "your task is {value}, the reference's {reference}",
  'grade.diverge.then': ', then ',
  'grade.diverge.hung': 'step {step}: in this step the reference {did}; yours never returned',
  'grade.diverge.died': 'step {step}: in this step the reference {did}; yours ended the process',

  // ── a run with nothing to judge (outcomeProblem.ts) ──
  'grade.timeout.title': 'timeout in step {step}',
  'grade.timeout.message': '{after}: {where} — the grader stopped it (an endless loop, a blocking call, or a wait for something that never comes?)',
  'grade.timeout.after': 'no answer after {ms} ms',
  'grade.timeout.afterUnknown': 'no answer in time',
  'grade.timeout.inConstructor': 'the runner was being built (its constructor) and never got to step 1',
  'grade.timeout.inStep': 'step {step} never returned',
  'grade.died.beforeStep1': 'before step 1',
  'grade.died.inStep': 'in step {step}',
  'grade.died.protocol.title': "the process broke the grader's protocol {where}",
  'grade.died.protocol.message':
    "the learner's process wrote something of its own on the grader's channel {where} ({protocol}), and the grader stopped it: a runner talks to the world only through its deps",
  'grade.died.title': 'the process ended {where}',
  'grade.died.message': "the learner's process {how} {where}{hint}",
  'grade.died.killedBy': 'was killed by {signal}',
  'grade.died.exited': 'exited with code {code}',
  'grade.died.hint.memory': ' — out of memory?',
  'grade.died.hint.killed': ' — did the code kill its own process?',
  'grade.died.hint.exited': ' — did the code call process.exit()?',
  'grade.stopped.message': 'the run stopped with {name}: {message}',

  // ── a submission (gradeSubmission.ts, gradeExplored.ts) ──
  'grade.broken.title': 'broken scenario',
  'grade.broken.message': 'this scenario is broken — the reference runner fails it too ({failure}); no runner can pass it',
  'grade.broken.check': '{title}: {message}',
  'grade.load.title': 'could not load {file}',
  'grade.load.message': 'could not load {file}: {message}',
  'grade.failed.title': 'the grader failed',
  'grade.failed.message': 'the grader failed on this submission: {message}',
  'grade.failed.stoppedEarly': 'its grading thread stopped early',
  'grade.who': '{runner} in {file}',
  'grade.who.unknown': 'the runner',
  'grade.notExplored.title': 'not explored',
  'grade.notExplored.message': 'not explored: {reason}',
  'grade.notExplored.notRun': 'it was not run',
  'grade.notExplored.notLoaded': 'the file did not load',
  'grade.notExplored.didNotEnd': 'the scenario as written did not run to its end',
  'grade.notExplored.hung': 'exploring stopped at {id}: a run hung',
  'grade.notExplored.died': "exploring stopped at {id}: a run ended the learner's process",
  'grade.explored.summary': 'one added fault at every point{own} → every invariant holds',
  'grade.explored.own': ' (its own {faults} kept)',
  'grade.explored.schedules.one': '{n} schedule',
  'grade.explored.schedules.other': '{n} schedules',
  'grade.explored.with': '{id} with {faults}',
  'grade.explored.withNoFault': '{id} with no fault',
  'grade.explored.while': 'while exploring {at}: {message}',
  'grade.explored.stoppedAfter': 'stopped after {counted}',
  'grade.explored.noneBroke': '{counted}, none broke an invariant',
  'grade.explored.broke': '{broke} of {counted} broke a rule',
  'grade.explored.finding': '{schedule}: {message}',

  // ── the grading thread and the learner's process (worker.ts, LearnerProcess.ts, learnerHost.ts) ──
  'grade.process.gone': "the learner's process is gone",
  'box.gone.killed': "the learner's process was stopped at its time limit of {ms} ms ({where})",
  'box.gone.exited': "the learner's process ended with exit code {code} ({where}) — did the code call process.exit()?",
  'box.gone.signal': "the learner's process was killed by {signal} ({where})",
  'box.gone.protocol': "the learner's process broke the channel ({where}): {why}",
  'box.where.step': 'in step {step}',
  'box.where.between': 'outside any step',
  'grade.process.loadTimeout': 'loading the file did not finish in time (does it run an endless loop when it is imported?)',
  'grade.process.goneWhileLoading': "the learner's process ended while loading the file ({exit})",
  'grade.process.killedBy': 'killed by {signal}',
  'grade.process.exitCode': 'exit code {code}',
  'grade.process.didNotStart': "the learner's process did not start",
  'grade.process.notReady': "the learner's process said {said} instead of ready",
  'grade.process.notAnObject': 'a message that is not an object',
  'grade.process.unexpected': 'an unexpected message {message}',
  'grade.process.unanswered': 'a call the grader does not answer: {call}',
  'grade.process.frameTooLong': 'a frame of {length} bytes announced: over the limit of {max}',
  'grade.process.frameNotJson': 'a frame that is not JSON',
  'grade.process.outputCut': '… (the rest was not kept)',
  'grade.process.unreadable': 'threw something the grader could not read',
  'grade.process.notAnError': 'threw a non-Error value: {value}',
  'grade.determinism':
    'step() called {call}: a runner must be deterministic — the same state, the same step, or a recovery after a crash could take another path. The key comes from this.prepare(task, action); time and chance belong to the simulator.',

  // ── a class's submissions (findSubmissions.ts) ──
  'grade.find.noSuchPath': '{target}: no such file or folder',
  'grade.find.emptyFolder': '{target}: a folder with no submissions in it (.ts/.js files, or sub-folders with a LearnerRunner.ts)',
} as const;
