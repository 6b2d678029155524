/**
 * The classroom assertions for teachers' own tests: runScenario runs one scenario with a runner class or
 * file, expectRun chains the checks, and a failure reads like the grader — what was expected, what
 * happened, the first problem, the first divergence, the replay command and the lesson.
 */
import { describe, expect, it } from 'vitest';
import { expectRun, RunAssertionError, runScenario } from '../../src/index.js';
import { LearnerRunner as Correct } from '../fixtures/learners/Correct.js';
import { mutantNamed } from '../../src/mutants/catalogue.js';
import { ReferenceRunner } from '../../src/runner/ReferenceRunner.js';
import type { RunnerClass } from '../../src/runner/BaseRunner.js';

const NewKey = mutantNamed('new_key_per_attempt')!.runner;
import { invariantTitle } from '../grade/helpers.js';
import { said } from '../../src/render/words/index.js';

/** The message of the assertion `fn` makes fail. */
function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(RunAssertionError);
    return (error as Error).message;
  }
  throw new Error('the assertion held, but it should have failed');
}

describe('runScenario', () => {
  it('runs a scenario file with a runner class written for the harness (an async step) and resolves to the finished run', async () => {
    const run = await runScenario('scenarios/lost_reply.yaml', { runner: ReferenceRunner });
    expect([run.scenario.id, run.runner, run.state?.status, run.state?.calls, run.db.ledger.length]).toEqual(['lost_reply', 'ReferenceRunner', 'succeeded', 5, 1]);
  });

  it('refuses a learner’s class handed in directly: its synchronous step runs in its box, which needs its file', async () => {
    await expect(runScenario('lost_reply', { runner: Correct as unknown as RunnerClass })).rejects.toThrow(/LearnerRunner has a synchronous step.*give its file instead/);
  });

  it('takes a scenario id and a runner file as well, loading TypeScript directly', async () => {
    const run = await runScenario('crash_after_commit', { runner: 'test/fixtures/learners/Correct.ts', seed: 7 });
    expect([run.seed, run.crashes, run.passed]).toEqual([7, 1, true]);
  });

  it('runs the learner inside the determinism guard, as the grader does', async () => {
    const run = await runScenario('happy_path', { runner: 'test/fixtures/learners/RandomKey.ts' });
    expect(run.runnerError).toMatchObject({ step: 4, name: 'DeterminismError' });
    expect(said('en', run.runnerError!.message)).toMatch(/^step\(\) called Math\.random\(\)/);
  });
});

describe('expectRun', () => {
  it('chains every assertion on a run that holds, the issue’s example word for word', async () => {
    const run = await runScenario('scenarios/lost_reply.yaml', { runner: 'test/fixtures/learners/Correct.ts' });
    const chained = expectRun(run).toEndWith('succeeded').toHaveCalls(5).toHaveLedgerRows(1).toHaveStock('camera', 2).toHoldInvariants();
    expect(chained.toHavePending(null).toPass()).toBe(chained);
  });

  it('fails toEndWith with what happened, the broken rule, the divergence, the replay and the lesson', async () => {
    const run = await runScenario('scenarios/lost_reply.yaml', { runner: 'test/fixtures/learners/NewKeyPerAttempt.ts' });
    const lines = failure(() => expectRun(run).toEndWith('succeeded')).split('\n');
    expect(lines[0]).toBe('lost_reply (LearnerRunner): expected the run to end with succeeded, but it ended with tool_error');
    expect(lines[1]).toMatch(/^first problem: inv3 · a new key on a retry — call 5 \(reserve attempt 2\) used key lost_reply:reserve:call-5, .*a retry must reuse the key made when the action was prepared/);
    expect(lines.slice(2)).toEqual([
      'figures: status expected succeeded, got tool_error · pending expected null, got reserve',
      'first divergence from the reference: step 4 (#12): both saved attempt_started, but your reserve has a new key lost_reply:reserve:call-4, the reference kept lost_reply:reserve:2872d1b4…',
      'replay: npx faultlab run scenarios/lost_reply.yaml --runner test/fixtures/learners/NewKeyPerAttempt.ts',
      'lesson: lessons/02-idempotency-keys.md#reused-unchanged-by-every-retry',
    ]);
  });

  it('names the class when the runner came as a class, since there is no file to replay', async () => {
    const run = await runScenario('lost_reply', { runner: NewKey });
    expect(failure(() => expectRun(run).toEndWith('succeeded'))).toContain('replay: npx faultlab run scenarios/lost_reply.yaml --runner \'<the file exporting NewKeyPerAttemptRunner>\'');
  });

  it('says what each figure means when it is wrong', async () => {
    const run = await runScenario('budget_exhausted', { runner: 'test/fixtures/learners/NoBudgetCheck.ts' });
    const expectation = expectRun(run);
    expect(failure(() => expectation.toHaveCalls(4)).split('\n')[0]).toBe('budget_exhausted (LearnerRunner): expected 4 calls (every attempt is one call, retries included), but the run made 5');
    expect(failure(() => expectation.toHaveLedgerRows(0)).split('\n')[0]).toBe('budget_exhausted (LearnerRunner): expected 0 ledger row(s) (one per effect, all tasks), but the ledger holds 1');
    expect(failure(() => expectation.toHaveStock('camera', 3)).split('\n')[0]).toBe('budget_exhausted (LearnerRunner): expected 3 camera(s) left on the shelf, but 2 are left');
    expect(failure(() => expectation.toHaveStock('drone', 1)).split('\n')[0]).toBe('budget_exhausted (LearnerRunner): expected 1 drone(s) left on the shelf, but the inventory has no item "drone"');
    expect(failure(() => expectation.toHavePending('reserve')).split('\n')[0]).toBe('budget_exhausted (LearnerRunner): expected reserve still pending at the end, but the run ended with nothing pending');
  });

  it('lists every broken invariant, or only the ones asked for', async () => {
    const run = await runScenario('budget_exhausted', { runner: 'test/fixtures/learners/NoBudgetCheck.ts' });
    const message = failure(() => expectRun(run).toHoldInvariants());
    expect(message.split('\n').slice(0, 2)).toEqual([
      'budget_exhausted (LearnerRunner): expected every invariant to hold, but 1 broke:',
      `  ✘ ${invariantTitle(2)}: the runner put 5 requests on the wire with max_calls 4: the budget must be checked before every attempt, retries included`,
    ]);
    expect(expectRun(run).toHoldInvariants('inv1', 'inv3_same_key_same_args')).toBeDefined(); // those held
    expect(failure(() => expectRun(run).toHoldInvariants('inv2'))).toContain('expected invariant(s) inv2 to hold, but 1 broke');
    expect(() => expectRun(run).toHoldInvariants('inv9')).toThrow('toHoldInvariants: no invariant "inv9"');
  });

  it('leads with the exception when the runner threw', async () => {
    const run = await runScenario('read_only', { runner: 'test/fixtures/learners/stub/LearnerRunner.ts' });
    const lines = failure(() => expectRun(run).toPass()).split('\n');
    expect(lines[0]).toMatch(/^read_only \(LearnerRunner\): expected the scenario to pass, but \d+ check\(s\) failed:$/);
    expect(lines[1]).toBe('  ✘ the runner did not throw: the runner threw NotImplementedError at step 1: not implemented yet: execute');
    expect(lines).toContain('first divergence from the reference: step 1: the reference saved prepared (search_docs(query=camera)), yours threw NotImplementedError: not implemented yet: execute');
    expect(lines.find((l) => l.startsWith('first problem:'))).toMatch(/^first problem: the runner threw NotImplementedError at step 1 \(test\/fixtures\/learners\/stub\/LearnerRunner\.ts:\d+\): not implemented yet: execute$/);
  });
});
