/**
 * The classroom assertions (src/classroom): what `expectRun(run)…` says when a teacher's test fails — the
 * headline (what was expected, what happened), then the grader's own reading of the run.
 */
export const classroom = {
  'classroom.noInvariant': 'toHoldInvariants: no invariant {name} (known: {known})',
  'classroom.endWith': 'expected the run to end with {status}, but it ended with {actual}',
  'classroom.noState': 'no state at all',
  'classroom.calls': 'expected {calls} calls (every attempt is one call, retries included), but the run made {actual}',
  'classroom.noCalls': 'none',
  'classroom.ledgerRows': 'expected {rows} ledger row(s) (one per effect, all tasks), but the ledger holds {actual}',
  'classroom.stock': 'expected {available} {item}(s) left on the shelf, but {got}',
  'classroom.stock.noItem': 'the inventory has no item {item}',
  'classroom.stock.left': '{n} are left',
  'classroom.pending': 'expected {expected} at the end, but the run ended with {actual}',
  'classroom.pending.none': 'nothing pending',
  'classroom.pending.some': '{name} still pending',
  'classroom.invariants': 'expected {which} to hold, but {n} broke:\n{lines}',
  'classroom.invariants.every': 'every invariant',
  'classroom.invariants.some': 'invariant(s) {names}',
  'classroom.pass': 'expected the scenario to pass, but {n} check(s) failed:\n{lines}',
  'classroom.failedCheck': '  ✘ {title}: {message}',
  'classroom.runnerArg': '<the file exporting {runner}>',
  'classroom.headline': '{scenario} ({runner}): {headline}',
  'classroom.firstProblem': 'first problem: {problem}',
  'classroom.syncClass': 'runScenario: {name} has a synchronous step, as a learner writes it: give its file instead (runScenario(id, { runner: "path/to/LearnerRunner.ts" })), and it runs in its box as the grader runs it',
} as const;
