/**
 * The grader's hint ladders (src/grade/hints.ts): per kind of problem three hints, each giving away a little
 * more — `question` points at the right place, `rule` names the rule and where it lives in the contract,
 * `code` is close to the code. Lines that start with two spaces are code, shown as written.
 */
export const hint = {
  // not_implemented
  'hint.notImplemented.question': 'Start with the happy path: a step that decides the next action, carries it to the tool once and records the answer — each saved as it happens — and stops when the policy finishes. That alone passes happy_path and read_only. What must a step save, and when? (lessons/08-the-exercise.md, "The contract of step")',
  'hint.notImplemented.rule': 'A step carries the run one move further: with nothing pending, decide and prepare the next action and save prepared (rule 2), then, in the same step, count the call and the attempt and save attempt_started (rule 4), execute, and on success record the observation, clear pending and save observed (rule 6).',
  'hint.notImplemented.code': 'A skeleton of the happy path; then add the error handling of rules 2, 3 and 5:\n  if (state.status !== \'running\') return state;\n  if (state.pending === null) {\n    const action = this.decide(state);\n    if (action.kind === \'finish\') return this.finalize(state, action.status);\n    state.pending = this.prepare(state.task, action);\n    state.attempts = 0;\n    state.decisions += 1;\n    this.save(state, \'prepared\');\n  }\n  state.calls += 1;\n  state.attempts += 1;\n  this.save(state, \'attempt_started\');\n  const result = this.execute(state);\n  state.observations[state.pending.name] = result;\n  state.pending = null;\n  return this.save(state, \'observed\');',
  // runner_error
  'hint.runnerError.question': 'Your step threw. Read the exception and the line it points to, then replay the scenario: the trace shows every event up to the step that threw.',
  'hint.runnerError.rule': 'Only this.execute(state) should sit inside try/catch, and only TransientError and ContractError are yours to handle; anything else (a crash included) must go through. Is state.pending null when you execute? Rule 2 must prepare it first.',
  'hint.runnerError.code': 'A step returns the state it was given (after saving). this.decide, this.prepare, this.save, this.finalize and this.execute are the only helpers you need; each is documented in src/runner/BaseRunner.ts.',
  // determinism
  'hint.determinism.question': 'Your step read the clock or rolled dice. The same state must always lead to the same step — what would a recovery after a crash do if it did not?',
  'hint.determinism.rule': 'The only key a runner needs comes from this.prepare(task, action): a hash of the intent, the same every time. Time and chance belong to the simulator, which drives them from the seed.',
  'hint.determinism.code': 'Delete the call named in the message. If you used it for a key, take the pending action that this.prepare returned and keep it as it is for every attempt.',
  // timeout
  'hint.timeout.question': 'Your step never returned. Is there a loop in step that waits for something — a reply, a success, a change of state?',
  'hint.timeout.rule': 'One step is at most one attempt. Do not retry in a loop inside step: after a TransientError save transient:<message> and return; the harness calls step again for the next attempt.',
  'hint.timeout.code': 'Remove any while/for loop around this.execute. The retry comes from the next call of step, with the same pending action, after rule 3 has checked the budget.',
  // worker_crash
  'hint.workerCrash.question': 'Your code stopped the thread it runs in (process.exit, or it ran out of memory). Replay the scenario to see where.',
  'hint.workerCrash.rule': 'A runner never exits the process and keeps nothing but the state: look for process.exit, or for arrays and maps that grow on every step.',
  'hint.workerCrash.code': 'The state is all a runner keeps between steps; instance fields are lost at a crash anyway. Move what you need into the state, or drop it.',
  // process_died
  'hint.processDied.question': 'Your code ended the process it runs in — process.exit(), process.kill(), or it ran out of memory. Replay the scenario to see the step where it happened.',
  'hint.processDied.rule': 'A step never ends the process: it returns the state, or throws. Look for process.exit, process.kill, or arrays and maps that grow on every step.',
  'hint.processDied.code': 'The state is all a runner keeps between steps; instance fields are lost at a crash anyway. Move what you need into the state, or drop it.',
  // not_explored
  'hint.notExplored.question': 'This scenario could not be explored: its run as written did not reach its end (or an earlier exploration hung). Fix the scenario as written first.',
  'hint.notExplored.rule': 'Exploring runs the scenario again with one added fault at every point; it needs a runner that finishes the scenario as written without an exception or a hang.',
  'hint.notExplored.code': 'Grade again after fixing the first failing scenario above: its exploration follows.',
  // crash_caught
  'hint.crashCaught.question': 'Your step caught the simulated crash and carried on. When the process dies, who is left to run the rest of your catch block?',
  'hint.crashCaught.rule': 'A crash is neither a TransientError nor a ContractError: the process is gone, and the harness rebuilds a new runner from the event log. Handle only those two in your catch, and let everything else through (rule 5).',
  'hint.crashCaught.code': 'Sort the error; rethrow anything that is neither kind:\n  if (isTransientError(error)) { … }\n  if (isContractError(error)) return this.finalize(state, \'tool_error\', error);\n  throw error;',
  // new_key_per_attempt
  'hint.newKeyPerAttempt.question': 'The retry carried another key than the first attempt. To the ledger, what is a request with a key it has never seen?',
  'hint.newKeyPerAttempt.rule': 'A retry is the same intent, so it carries the same key: the one this.prepare(task, action) made when the action was prepared and saved (rule 2). The ledger recognises a retry by that key alone.',
  'hint.newKeyPerAttempt.code': 'Look for any line that writes state.pending or pending.args.key outside `if (state.pending === null) { … }`. On a retry, send state.pending exactly as it was saved.',
  // args_changed_on_retry
  'hint.argsChangedOnRetry.question': 'The retry carried other args than the first attempt. Under the same key, what does the tool make of a request that differs?',
  'hint.argsChangedOnRetry.rule': 'The fingerprint covers every arg but the key (lesson 3): the same key with other args is PAYLOAD_CONFLICT, and a re-read version is a new decision, not a retry. A retry sends the pending action unchanged.',
  'hint.argsChangedOnRetry.code': 'Do not touch state.pending.args between attempts — no attempt counter, no fresh expected_version. If the action must change, it is a new intent: a new decision, prepared anew.',
  // contract_error_retried
  'hint.contractErrorRetried.question': 'Which errors does your step retry? A ContractError is a definite refusal: the same request will get the same answer.',
  'hint.contractErrorRetried.rule': 'Retry only a TransientError (it may not have happened, or it may have: keep pending and try again with the same key). A ContractError ends the run: finalize it as tool_error (rule 5).',
  'hint.contractErrorRetried.code': 'The catch around this.execute, whole:\n  } catch (error) {\n    if (isTransientError(error)) {\n      if (state.attempts > state.task.max_retries) state.status = \'retry_exhausted\';\n      return this.save(state, `transient:${error.message}`);\n    }\n    if (isContractError(error)) return this.finalize(state, \'tool_error\', error);\n    throw error; // a crash is not yours to handle\n  }',
  // budget_checked_late
  'hint.budgetCheckedLate.question': 'A request left with the budget already spent. At which moment does your step compare calls with max_calls — before a request leaves, or after?',
  'hint.budgetCheckedLate.rule': 'Every attempt is a call, so the budget is checked before each one: when a new action is decided (rule 2) and before every attempt, a retry of an action already pending included (rule 3). A check after the call comes one call too late.',
  'hint.budgetCheckedLate.code': 'The same two lines in both places — after a tool action is decided (before this.prepare), and just before state.calls += 1:\n  if (state.calls >= state.task.max_calls) {\n    return this.finalize(state, \'budget_exhausted\');\n  }',
  // saved_late
  'hint.savedLate.question': 'A request left before your step saved it. If the process died while that request was on the wire, what would the new runner find in the log?',
  'hint.savedLate.rule': 'Save first, then send: the action with its key as prepared (rule 2), then the attempt counted — calls and attempts — as attempt_started (rule 4), both before this.execute. The tool commits in its own transaction; your save is another one (lesson 4, the gap).',
  'hint.savedLate.code': 'The order of one attempt:\n  state.calls += 1;\n  state.attempts += 1;\n  this.save(state, \'attempt_started\');\n  const result = this.execute(state);',
  // cleared_after_save
  'hint.clearedAfterSave.question': 'Your step saved the observation while the action was still pending. If the process died right after that save, what would a new runner read back from the log?',
  'hint.clearedAfterSave.rule': 'The log must rebuild your state at every moment, not only at the end: every change is saved before the step returns. A success records the observation and clears pending in one state, saved as observed (rule 6).',
  'hint.clearedAfterSave.code': 'Both changes, then one save:\n  state.observations[state.pending.name] = result;\n  state.pending = null;\n  return this.save(state, \'observed\');',
  // pending_dropped
  'hint.pendingDropped.question': 'After a TransientError your step let go of the pending action. Did the effect surely not happen?',
  'hint.pendingDropped.rule': 'A TransientError keeps the action pending (rule 5): after a lost reply the effect may have happened, and only a retry with the same key can fetch its receipt. Pending is cleared by a success only (rule 6).',
  'hint.pendingDropped.code': 'Never set state.pending = null in the catch. Only a success clears it: state.observations[state.pending.name] = result; state.pending = null; save observed.',
  // lost_reply_as_failure
  'hint.lostReplyAsFailure.question': 'Your step ended the run on a TransientError. Did the tool refuse the request — or did the answer just not come back?',
  'hint.lostReplyAsFailure.rule': 'A TransientError is not a refusal: it may be retried, with the same key (rule 5). After a lost reply the effect may even have happened; the retry finds out. The run ends only when attempts > max_retries (retry_exhausted), or on a ContractError (tool_error).',
  'hint.lostReplyAsFailure.code': 'On a TransientError, keep pending and save; end the run only when the retries are spent:\n  if (state.attempts > state.task.max_retries) state.status = \'retry_exhausted\';\n  return this.save(state, `transient:${error.message}`);',
  // load_error
  'hint.loadError.question': 'The grader could not load your file. Read the error: it names the line.',
  'hint.loadError.rule': 'The file must export a class with a step(state) method (export class LearnerRunner extends BaseRunner { … }). A syntax or import error stops it from loading at all.',
  'hint.loadError.code': 'Run `npx tsc -p tsconfig.json --noEmit` to see every compile error with its line, fix the first, and grade again.',
  // inv1_one_effect_per_intent
  'hint.inv1OneEffectPerIntent.question': 'One intent took effect twice. What did the ledger see on the retry — the same key, or one it had never seen?',
  'hint.inv1OneEffectPerIntent.rule': 'The ledger returns the original receipt only for the same key with the same fingerprint. A new key, or changed args, is a new reservation as far as the tool can tell (lesson 2).',
  'hint.inv1OneEffectPerIntent.code': 'The key is made once, by this.prepare(task, action) in rule 2, and saved with the pending action. No other line may write state.pending or its args; a retry sends state.pending exactly as it was saved.',
  // inv2_call_budget
  'hint.inv2CallBudget.question': 'Every attempt is a call, retries included. Where does your step compare calls with max_calls?',
  'hint.inv2CallBudget.rule': 'Check the budget twice: when deciding (rule 2, before you prepare a new action) and before every attempt (rule 3, also for a retry of a pending action). Either check ends the run with budget_exhausted.',
  'hint.inv2CallBudget.code': 'The same two lines in both places — after a tool action is decided (before this.prepare), and just before state.calls += 1:\n  if (state.calls >= state.task.max_calls) {\n    return this.finalize(state, \'budget_exhausted\');\n  }',
  // inv3_same_key_same_args
  'hint.inv3SameKeySameArgs.question': 'A retry is the same intent. Does your step change state.pending — its key or its args — between one attempt and the next?',
  'hint.inv3SameKeySameArgs.rule': 'The key is made once, by this.prepare(task, action) when the action is prepared (rule 2). On a retry, pending already exists: skip rule 2 and send state.pending exactly as it was saved.',
  'hint.inv3SameKeySameArgs.code': 'Look for any assignment to state.pending (or pending.args.key) outside `if (state.pending === null) { … }`. Besides prepare, the only write to pending is `state.pending = null` after a success.',
  // inv4_log_rebuilds_state
  'hint.inv4LogRebuildsState.question': 'Something in your final state was never saved. After a crash only the event log survives: what would a new runner rebuild?',
  'hint.inv4LogRebuildsState.rule': 'Every change to the state must be followed by this.save(state, label) before step returns. Ending the run too: this.finalize(state, status) sets the status and saves it.',
  'hint.inv4LogRebuildsState.code': 'Replay the scenario and compare the last saved event with the final state named in the message; the field that differs was changed after the last save.',
  // inv5_contract_error_changes_nothing
  'hint.inv5ContractErrorChangesNothing.question': 'Which errors does your step retry? A ContractError is a definite refusal: the same request will get the same answer.',
  'hint.inv5ContractErrorChangesNothing.rule': 'Retry only a TransientError (it may not have happened, or it may have: keep pending and try again with the same key). A ContractError ends the run: finalize it as tool_error (rule 5).',
  'hint.inv5ContractErrorChangesNothing.code': 'The catch around this.execute, whole:\n  } catch (error) {\n    if (isTransientError(error)) {\n      if (state.attempts > state.task.max_retries) state.status = \'retry_exhausted\';\n      return this.save(state, `transient:${error.message}`);\n    }\n    if (isContractError(error)) return this.finalize(state, \'tool_error\', error);\n    throw error; // a crash is not yours to handle\n  }',
  // inv6_success_has_receipt
  'hint.inv6SuccessHasReceipt.question': 'Your run succeeded without holding the receipt of its reserve. What happened to the pending reserve after its reply was lost?',
  'hint.inv6SuccessHasReceipt.rule': 'After a TransientError keep state.pending: the effect may have happened. The next step retries the same action with the same key, and the ledger hands back the original receipt — record that as the observation.',
  'hint.inv6SuccessHasReceipt.code': 'Never set state.pending = null in the catch. Only a success clears it: state.observations[state.pending.name] = result; state.pending = null; save observed.',
  // inv7_run_terminates
  'hint.inv7RunTerminates.question': 'Your run never reached a terminal status. Is there a path through step that neither moves forward nor ends the run?',
  'hint.inv7RunTerminates.rule': 'Each step must change something and save it: prepare, attempt, observe, or finish. Running out of retries ends the run as retry_exhausted (rule 5); running out of calls as budget_exhausted (rule 3).',
  'hint.inv7RunTerminates.code': 'Check the step that comes after a crash: the state has a pending action with attempts > 0 — that is simply a retry (rules 3 to 6), not something to wait for.',
  // status
  'hint.inv8OneLiveHolder.question': 'Two workers held the task at once. What makes a claim see the table as it will stand when its grant commits?',
  'hint.inv8OneLiveHolder.rule': 'A grant is one transaction that takes the write lock before it reads (BEGIN IMMEDIATE): the task it reads cannot be granted by another before it writes. A deferred BEGIN reads first and may find, at its write, that what it read is gone (SQLITE_BUSY): never write again what it read.',
  'hint.inv8OneLiveHolder.code': "claim: this.db.exec('BEGIN IMMEDIATE'), then read the held task or the first queued one, then UPDATE … token = token + 1, then COMMIT — and ROLLBACK on any error.",
  'hint.inv9TokenPlusOne.question': "A grant did not carry the task's previous token plus one. Which grants move the token — and does a re-claim by the same worker count?",
  'hint.inv9TokenPlusOne.rule': "Every grant sets token = token + 1 in the same UPDATE, the same worker's re-claim included (its claim's reply was lost, or it held the task in a life a crash ended); nothing else moves the token.",
  'hint.inv9TokenPlusOne.code': 'In the grant: UPDATE tasks SET token = token + 1, … WHERE task_id = ? — computed by SQLite from the row it updates, never from a value read earlier.',
  'hint.inv10NoStaleToken.question': "A write went in under a token older than the task's holder's. What does your fence check of the writer?",
  'hint.inv10NoStaleToken.rule': "The fence is the condition every holder's write commits under: the task, its owner AND its token, and that it is still running. Without the token, a zombie (a worker whose lease expired while it paused) writes over its successor.",
  'hint.inv10NoStaleToken.code': "Name the owner and the token in the fence: static readonly fence = \"task_id = @task AND owner = @owner AND token = @token AND state = 'running'\"",
  'hint.inv11FinishedStaysFinished.question': 'A finished task changed again. Which of your writes can touch a task that is done — finish, or the sweep?',
  'hint.inv11FinishedStaysFinished.rule': "A finished task never changes: finish writes only under the holder's whole fence (task, owner, token, running); the sweep returns only the very grant it found expired, still running, inside one transaction.",
  'hint.inv11FinishedStaysFinished.code': "finish: UPDATE … WHERE <the fence>; sweep: BEGIN IMMEDIATE, read the expired leases, UPDATE … WHERE task_id = ? AND token = ? AND state = 'running', COMMIT.",
  'hint.inv12BudgetsAcrossWorkers.question': "The workers together sent more than the task's budget. Which worker's requests should have been refused?",
  'hint.inv12BudgetsAcrossWorkers.rule': "A request is a holder's write too: the reservation commits under the fence, so a zombie's request is refused (STALE_FENCE) and the budget is spent once, by the holder.",
  'hint.inv12BudgetsAcrossWorkers.code': "Check the fence: it must name the owner and the token, or a stale holder's attempt is carried out and counted.",
  'hint.inv13NoStrandedTask.question': 'A task was left with no live holder and was not granted again. Can any write of a rightful holder go through — and does the sweep return what expired?',
  'hint.inv13NoStrandedTask.rule': "A lease is liveness: an expired lease must come back to the queue (the sweep) and be granted again; and the fence must admit the holder's own writes (its token equals the task's), or nothing is ever done.",
  'hint.inv13NoStrandedTask.code': "fence: token = @token (not <=); sweep: return every running task whose lease_until_ms <= now, state 'queued', owner NULL, token kept.",
  'hint.workers.question': "The queue's figures differ from the scenario's. Which write of yours made one grant more or less, or let a stale write through?",
  'hint.workers.rule': "Each grant (a new holder or a new token) is counted; each stale write the fence refused is counted. Compare your run with the reference queue's: the first line where the traces differ names it.",
  'hint.workers.code': 'Run the scenario with `--runner reference` and with your file, and read the two traces side by side.',
  'hint.status.question': 'The run ended in another status than this scenario expects. Which rule of the contract decides that status?',
  'hint.status.rule': 'succeeded / gave_up come from a finish action (rule 2); policy_error from a failure to decide (rule 2); budget_exhausted from the budget checks (rules 2 and 3); retry_exhausted when attempts > max_retries after a TransientError (rule 5); tool_error from a ContractError (rule 5).',
  'hint.status.code': 'Replay the scenario with your runner and with the reference (`--runner reference`): the first line where the two traces differ is the rule to look at.',
  // calls
  'hint.calls.question': 'Your run made a different number of calls. Every attempt is one call, the first one and every retry — and a recovery after a crash does not reset the count.',
  'hint.calls.rule': 'calls and attempts go up together, once per attempt, saved in attempt_started before the request leaves (rule 4). A new action resets attempts to 0, never calls.',
  'hint.calls.code': 'Compare your trace with the reference: count the attempt_started events. One too many or one too few shows where.',
  // ledger
  'hint.ledger.question': 'The tool holds a different number of receipts than it should. Did a reserve happen twice, or not at all?',
  'hint.ledger.rule': 'One ledger row per effect. A retry with the same key adds none (the ledger answers); a new key adds one.',
  'hint.ledger.code': 'Replay the scenario and look for `ledger +1` lines in the trace: each is one effect.',
  // stock
  'hint.stock.question': 'The shelf holds a different number of items than it should: an effect happened that should not have, or one did not happen.',
  'hint.stock.rule': 'Stock changes only when the tool commits a reserve under a key it has not seen. Compare the reserves in your trace with the reference.',
  'hint.stock.code': 'Replay the scenario and look for `stock camera 3→2` lines: each is one effect.',
  // pending
  'hint.pending.question': 'Your run ended with a different pending action than expected. When must pending stay, and when must it go?',
  'hint.pending.rule': 'pending is cleared only by a success (rule 6). A TransientError keeps it, even when retries run out (the effect may have happened); a ContractError ends the run with it still there.',
  'hint.pending.code': 'Do not touch state.pending in the catch; set it to null only after recording the observation.',
  // observations
  'hint.observations.question': 'Your run recorded a different set of tool results than expected.',
  'hint.observations.rule': 'Record a result only on success: state.observations[state.pending.name] = result (rule 6), never after a failure.',
  'hint.observations.code': 'Compare the observed events in your trace with the reference.',
  // fault_not_reached
  'hint.faultNotReached.question': 'This scenario\'s fault never fired: your run never reached the point where it strikes. Where does your run go another way than the reference?',
  'hint.faultNotReached.rule': 'The first divergence from the reference, shown above, is where your run left the path the scenario tests.',
  'hint.faultNotReached.code': 'Replay it with your runner and with `--runner reference` and compare the two traces line by line up to that point.',
  // reference_fails
  'hint.referenceFails.question': 'This scenario is broken: the reference runner fails it too, so no runner can pass it.',
  'hint.referenceFails.rule': 'Run `npx faultlab run <the scenario file>` to see what the reference gets, and correct the scenario\'s expect: block.',
  'hint.referenceFails.code': 'Check that every listed fault can fire and that the expected figures match the reference run.',
} as const;
