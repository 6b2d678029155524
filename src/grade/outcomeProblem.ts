/**
 * A run that produced nothing to judge — it hung, its process died, it could not start — as the problem to
 * tell the learner. The grader's own words: nothing here comes from the learner's process.
 */
import type { RunOutcome } from './job.js';
import type { Problem } from './types.js';

export function outcomeProblem(outcome: Exclude<RunOutcome, { kind: 'done' }>, timeoutMs?: number): Problem {
  if (outcome.kind === 'timeout') {
    const where = outcome.step === 0 ? 'the runner was being built (its constructor) and never got to step 1' : `step ${outcome.step} never returned`;
    const after = timeoutMs !== undefined ? `no answer after ${timeoutMs} ms` : 'no answer in time';
    return {
      id: 'timeout',
      title: `timeout in step ${outcome.step}`,
      message: `${after}: ${where} — the grader stopped it (an endless loop, a blocking call, or a wait for something that never comes?)`,
    };
  }
  if (outcome.kind === 'died' && outcome.protocol !== undefined) {
    const where = outcome.step === 0 ? 'before step 1' : `in step ${outcome.step}`;
    return {
      id: 'process_died',
      title: `the process broke the grader's protocol ${where}`,
      message: `the learner's process wrote something of its own on the grader's channel ${where} (${outcome.protocol}), and the grader stopped it: a runner talks to the world only through its deps`,
    };
  }
  if (outcome.kind === 'died') {
    const how = outcome.exit.signal !== null ? `was killed by ${outcome.exit.signal}` : `exited with code ${outcome.exit.code}`;
    const hint = outcome.exit.signal === 'SIGABRT' || outcome.exit.signal === 'SIGTRAP' ? ' — out of memory?' : outcome.exit.signal !== null ? ' — did the code kill its own process?' : ' — did the code call process.exit()?';
    const where = outcome.step === 0 ? 'before step 1' : `in step ${outcome.step}`;
    return { id: 'process_died', title: `the process ended ${where}`, message: `the learner's process ${how} ${where}${hint}` };
  }
  return { id: 'worker_crash', title: outcome.error.name, message: `the run stopped with ${outcome.error.name}: ${outcome.error.message}` };
}
