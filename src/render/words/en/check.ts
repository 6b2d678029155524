/**
 * The checks (src/check): every invariant's title and the sentence that teaches when it breaks, the meaning
 * of every figure a scenario may expect, the scenario's own integrity, and the labs' figure checks.
 */
export const check = {
  'check.inv1.title': 'at most one effect per intent',
  'check.inv1.keyRows': 'key {key} has {rows} ledger rows: one key must have one receipt',
  'check.inv1.effectWithoutReceipt': 'an effect without a receipt',
  'check.inv1.receiptWithoutEffect': 'a receipt without an effect',
  'check.inv1.notConserved':
    "{item} is {available} (v{version}) but {initial} (v{initialVersion}) minus the ledger's {reserved} in {rows} row(s) gives {want} (v{wantVersion}): {what} — the effect and its receipt must commit in one transaction",
  'check.inv1.tooManyEffects': 'reserve took effect {own} times for {intents} intent(s): {own} ledger rows for task {task} — did a retry make a new idempotency key?',
  'check.inv1.ok': 'one effect per intent; stock and versions match the ledger',

  'check.inv2.title': 'calls <= max_calls and attempts as made, after every step',
  'check.inv2.wire': 'the runner put {wire} requests on the wire with max_calls {max}: the budget must be checked before every attempt, retries included',
  'check.inv2.wireInRun': 'the runner put {wire} requests on the wire in the run with max_calls {max}: the budget must be checked before every attempt, retries included',
  'check.inv2.wireInReplay':
    'the runner put {wire} requests on the wire in replay {replay} with max_calls {max}: the budget must be checked before every attempt, retries included',
  'check.inv2.logged': 'calls reached {logged} with max_calls {max}: the budget must be checked before every attempt',
  'check.inv2.ok': '{actual} call(s) within max_calls {max}',

  'check.inv3.title': 'every attempt of a pending action used its key and args; pending until answered, after every step',
  'check.inv3.keyChanged':
    '{name} (decision {decision}) at call {call} used key {key}, but its first attempt (call {firstCall}) used {firstKey}: a retry must reuse the key made when the action was prepared',
  'check.inv3.argsChanged': '{name} (decision {decision}) at call {call} changed its args from {from} to {to}: a retry must carry the pending action unchanged',
  'check.inv3.notPersisted':
    'call {call} sent {name} with no pending action saved: persist the pending action (prepared, attempt_started) before the request leaves, or a crash loses it',
  'check.inv3.sentOther': 'call {call} sent {name} {args} but the saved pending action is {saved} {savedArgs}: send exactly what was persisted',
  'check.inv3.ok': 'every attempt carried its pending action unchanged',

  'check.inv4.title': 'the event log rebuilds the state after every step',
  'check.inv4.unsavedStep': "after step {step} the runner held a state its log would not rebuild: its last event #{seq} differs in {fields} (log: {log}, runner: {runner}) — a crash right then loses that; save after every change, before the step returns",
  'check.inv4.nothingSaved': 'after step {step} the runner held a state with nothing saved: a crash right then loses all of it',
  'check.inv4.noState': 'there is no final state to compare with the log',
  'check.inv4.differs': "the state rebuilt from the event log differs from the runner's final state in {fields} (log: {log}, runner: {runner}): save after every change, or a crash loses it",
  'check.inv4.ok': 'the log rebuilds the state after every step',

  'check.inv5.title': 'a ContractError is final and changes nothing',
  'check.inv5.retried':
    'the runner tried {name} again (attempt {attempt}) after ContractError {code}: a contract error is never retried — the same request gets the same refusal and only burns the budget',
  'check.inv5.changedData': "{tool} answered ContractError {code} but changed the tool's data: a refusal must change nothing (roll the transaction back)",
  'check.inv5.refusedCommitted':
    '{tool} answered ContractError {code} to a request whose effect is already committed under the same key and fingerprint: a faithful retry must get its original receipt — check the ledger before the version',
  'check.inv5.ok': 'every ContractError left the data as it was and ended the action',

  'check.inv6.title': 'succeeded means one receipt per reserve, observed',
  'check.inv6.rows': 'the run succeeded but reserve (decision {decision}, key {key}) has {rows} ledger rows: each reserve intent needs exactly one receipt',
  'check.inv6.notObserved': 'the run succeeded but the runner has no reserve observation: did it drop the pending action after a failure?',
  'check.inv6.otherReceipt': 'the reserve observation {observed} is not the stored receipt {stored}',
  'check.inv6.ok': 'every reserve intent has its one receipt, and the runner saw it',
  'check.inv6.notSuccess': 'not a success: nothing to check',

  'check.inv7.title': 'the run ends within the step bound',
  'check.inv7.threw': 'the run never ended: the runner threw at step {step} with status {status}',
  'check.inv7.noEnd': 'no terminal status after {steps} steps (bound {bound}): status is still {status}',
  'check.inv7.stuck':
    'no terminal status after {steps} steps (bound {bound}): status is still {status} with {name} still pending after {attempts} attempt(s) — the run stopped making progress',
  'check.inv7.ok': 'ended {status} after {steps} steps',

  // ── a scenario's own figures (src/check/expectations.ts) ──
  'check.figure.title': '{figure}',
  'check.figure.asExpected': '{figure} is {actual} as expected',
  'check.figure.differs': '{figure}: expected {expected}, got {actual} — {meaning}',
  'check.meaning.status': 'the terminal status of the run',
  'check.meaning.calls': 'every attempt is one call, retries included',
  'check.meaning.ledger': 'one ledger row per effect, all tasks counted',
  'check.meaning.stock': 'what is left on the shelf',
  'check.meaning.pending': 'the action still pending at the end, kept while its outcome is unknown',
  'check.meaning.observations': 'the tools whose results the runner recorded',
  'check.meaning.crashes': 'crashes recovered, each by a new runner from the event log',
  'check.meaning.durability.backoff_waits': 'how many times the runner waited on the virtual clock before a retry',
  'check.meaning.durability.backoff_ms': 'every backoff wait before a retry, in virtual ms — the same seed gives the same waits',
  'check.meaning.durability.breaker': "the breaker's transitions, in order",
  'check.meaning.durability.refused_by_breaker': 'attempts the open breaker refused before the wire (each still one call and one attempt)',
  'check.meaning.durability.dlq': 'the status of every dead-letter record at the end',
  'check.meaning.durability.replays': 'dead-letter records replayed through a fresh runner, with the same key',

  // ── the scenario itself (src/check/scenarioIntegrity.ts) ──
  'check.faults.title': 'every listed fault fired',
  'check.faults.allFired': 'all {n} listed fault(s) fired',
  'check.faults.broken': 'broken scenario: {faults} never fired — the run never reached that point, or another fault there ended the attempt first, so it tested nothing there',
  'check.faults.stoppedBefore': '{faults} never fired: the run stopped before that point ({early})',
  'check.faults.leftPath': '{faults} never fired: this run left the path the scenario was written for before that point (with --runner reference it fires, unless the scenario itself is broken)',
  'check.crashCaught.title': 'a crash ends the step',
  'check.crashCaught.message': "at step {step} the runner caught the simulated crash ({how}): a crash ends the process — only TransientError and ContractError are the step's to handle; let anything else through",
  'check.faults.threwAt': 'the runner threw at step {step}',
  'check.faults.neverEnded': 'the run never ended',
  'check.runnerError.title': 'the runner did not throw',
  'check.runnerError.message': 'the runner threw {name} at step {step}: {message}',

  // ── a lab's figures (src/check/figures.ts) ──
  'check.lab.asExpected': '{key} = {actual}, as expected',
  'check.lab.noSuchFigure': 'expected {key} = {expected}, but the run has no such figure (figures: {figures})',
  'check.lab.differs': 'expected {key} = {expected}, got {actual}',
  'check.lab.differsMeaning': 'expected {key} = {expected}, got {actual} — {meaning}',
} as const;
