/**
 * Each classic mistake gets its own diagnosis. One learner's LearnerRunner.ts per mistake (an unchanged copy of
 * the stub's shape with that one mistake, test/fixtures/learners/mistakes/), graded on a scenario its mistake
 * reaches: the problem names the mistake — with the invariant it broke, where it broke one — the message says
 * what exactly happened, the lesson is the one that gives the reason, and the hint ladder is written for it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { hintsFor } from '../../src/grade/hints.js';
import type { ProblemId } from '../../src/grade/types.js';
import { loadScenarios } from '../../src/scenario/load.js';
import { GRADED_TARGETS } from '../../src/core/paths.js';
import { gradeSubmission, LEARNERS, mistake, ROOT } from './helpers.js';

/** The graded set, as `faultlab grade` grades it by default; and a correct step shaped nothing like the reference. */
const GRADED = loadScenarios(GRADED_TARGETS);
const DIFFERENT = join(LEARNERS, 'different', 'LearnerRunner.ts');

interface Case {
  fixture: string;
  scenario: string;
  /** Found only with added faults: the scenario as written passes. */
  explored?: true;
  /** The step threw: an error, not a fail (Exercism's statuses). */
  threw?: true;
  id: string;
  title: string;
  message: RegExp;
  lesson: string;
  hint: string;
}

const CASES: Case[] = [
  {
    fixture: 'new-key-per-attempt',
    scenario: 'lost_reply',
    id: 'new_key_per_attempt',
    title: 'inv3 · a new key on a retry',
    message: /^call 5 \(reserve attempt 2\) used key lost_reply:reserve:call-5, but its first attempt \(call 4\) had lost_reply:reserve:call-4: a retry must reuse the key/,
    lesson: 'lessons/02-idempotency-keys.md#reused-unchanged-by-every-retry',
    hint: 'The retry carried another key than the first attempt.',
  },
  {
    fixture: 'args-changed-on-retry',
    scenario: 'lost_reply',
    id: 'args_changed_on_retry',
    title: 'inv3 · args changed on a retry',
    message: /^call 5 \(reserve attempt 2\) sent reserve\(item=camera qty=1 expected_version=0 attempt=2 key=.+\), but its first attempt \(call 4\) was reserve\(item=camera qty=1 expected_version=0 key=.+\): a retry must carry the pending action unchanged/,
    lesson: 'lessons/03-fingerprint-and-version.md#the-fingerprint-does-the-key-still-mean-the-same-request',
    hint: 'The retry carried other args than the first attempt.',
  },
  {
    fixture: 'contract-error-retried',
    scenario: 'payload_conflict',
    id: 'contract_error_retried',
    title: 'inv5 · a ContractError retried',
    message: /^call 6 \(reserve attempt 2\) sent again the very request the tool refused with ContractError PAYLOAD_CONFLICT: a refusal is definite/,
    lesson: 'lessons/06-which-errors-to-retry.md#a-contract-error-does-not-get-better-with-time',
    hint: 'Which errors does your step retry?',
  },
  {
    fixture: 'budget-checked-late',
    scenario: 'budget_exhausted',
    explored: true,
    id: 'budget_checked_late',
    title: 'inv2 · the budget checked late, or never',
    message: /^budget_exhausted with transient at reserve attempt 1 call 4: call 5 \(reserve attempt 2\) was request 5 on the wire with max_calls 4: the budget must be checked before every attempt/,
    lesson: 'lessons/06-which-errors-to-retry.md#budgets-attempts-retries-and-calls',
    hint: 'A request left with the budget already spent.',
  },
  {
    fixture: 'attempt-saved-late',
    scenario: 'crash_after_commit',
    id: 'saved_late',
    // the save after the answer still holds the action pending: invariant 3, after every step
    title: 'inv3 · an attempt sent before it was saved',
    message: /^call 1 \(search_docs attempt 1\) left while the last saved event \(#2 prepared\) still says calls 0, attempt 0: save attempt_started with the call counted before the request leaves/,
    lesson: 'lessons/04-one-transaction.md#the-gap-the-runners-save-is-another-transaction',
    hint: 'A request left before your step saved it.',
  },
  {
    fixture: 'pending-dropped',
    scenario: 'lost_reply',
    id: 'pending_dropped',
    title: 'inv3 · pending dropped after a TransientError',
    message: /^after a lost reply on reserve \(indefinite: the effect may have happened\) the step saved transient:lost_reply with nothing pending/,
    lesson: 'lessons/05-losing-contact-after-commit.md#example-1-the-reply-is-lost-the-retry-recovers-it',
    hint: 'After a TransientError your step let go of the pending action.',
  },
  {
    fixture: 'lost-reply-as-failure',
    scenario: 'lost_reply',
    id: 'lost_reply_as_failure',
    title: 'a lost reply treated as final',
    message: /^after a lost reply on reserve \(indefinite: the effect may have happened\) the step ended the run with tool_error: a TransientError is not a refusal/,
    lesson: 'lessons/06-which-errors-to-retry.md#a-timeout-does-not-prove-that-nothing-happened',
    hint: 'Your step ended the run on a TransientError.',
  },
  {
    fixture: 'observed-before-clearing',
    scenario: 'happy_path',
    id: 'cleared_after_save',
    // invariant 3 holds after every step: the first save after the answer still holds the action pending
    title: 'inv3 · pending cleared after the save',
    message: /^step 1 saved #4 with search_docs\(query=camera\) still pending, then cleared pending without saving again: .* a crash right after #4 makes a new runner send it again/,
    lesson: 'lessons/08-the-exercise.md#rule-6-record-what-the-tool-answered',
    hint: 'Your step saved the observation while the action was still pending.',
  },
  {
    fixture: 'marks-every-finish-succeeded',
    scenario: 'policy_gives_up',
    id: 'finish_status_changed',
    title: 'a finish saved with another status than the policy gave',
    message: /^at step 3 the policy finished with gave_up, but the step saved #8 succeeded: a finish ends the run with the status the policy gave/,
    lesson: 'lessons/08-the-exercise.md#rule-2-decide-prepare-save',
    hint: 'Your run ended succeeded where the policy said something else.',
  },
  {
    fixture: 'transient-by-message-text',
    scenario: 'breaker_refuses_attempt',
    threw: true,
    id: 'transient_by_message',
    title: 'a TransientError told by its message text, thrown at step 4',
    message:
      /^the step threw TransientError circuit_open at step 4 \(test\/fixtures\/learners\/mistakes\/transient-by-message-text\/LearnerRunner\.ts:\d+\), though it retried unavailable before: tell a failure worth retrying by its class/,
    lesson: 'lessons/08-the-exercise.md#rule-5-execute-and-sort-the-failure',
    hint: 'Your step retried some TransientErrors and threw another.',
  },
  {
    fixture: 'no-reauthorise-before-retry',
    scenario: 'permission_revoked_before_retry',
    id: 'not_reauthorised',
    title: 'a retry sent without authorising it again',
    message: /^call 5 \(reserve attempt 2\) left at step 5 after the task's permission for reserve was revoked: authorise the pending action again before every attempt/,
    lesson: 'lessons/08-the-exercise.md#rule-5-execute-and-sort-the-failure',
    hint: 'A retry left after the task lost its permission.',
  },
  {
    fixture: 'missing-attempts-reset',
    scenario: 'happy_path',
    id: 'attempts_not_reset',
    title: 'inv2 · attempts not reset for a new action',
    message: /^at step 2 read_doc went out as attempt 2, its try number 1: it was prepared with attempts 1, the count of the action before/,
    lesson: 'lessons/08-the-exercise.md#rule-2-decide-prepare-save',
    hint: 'Your retries ran out before the action had failed max_retries times.',
  },
  {
    fixture: 'throws-transient',
    scenario: 'lost_reply',
    threw: true,
    id: 'transient_thrown',
    title: 'a TransientError thrown out of step 4',
    message: /^the step threw TransientError lost_reply at step 4 \(test\/fixtures\/learners\/mistakes\/throws-transient\/LearnerRunner\.ts:\d+\): a TransientError is a failure worth retrying, not a bug/,
    lesson: 'lessons/08-the-exercise.md#rule-5-execute-and-sort-the-failure',
    hint: 'Your step threw a TransientError out of step.',
  },
  {
    fixture: 'budget-checked-after-prepare',
    scenario: 'budget_exhausted',
    id: 'budget_after_prepare',
    title: 'the budget checked after prepare, not before',
    message: /^at step 5 the step saved #13 prepared with reserve\(.*\) pending, though calls 4 had spent max_calls 4: with the budget spent, a decision ends the run budget_exhausted before any action is prepared/,
    lesson: 'lessons/08-the-exercise.md#rule-2-decide-prepare-save',
    hint: 'Your run ended budget_exhausted with an action still pending that was never tried.',
  },
  {
    fixture: 'crash-caught',
    scenario: 'crash_after_commit',
    id: 'crash_caught',
    title: 'a crash caught by the step',
    message: /^the step went on after the simulated crash \(step caught the crash and then threw TypeError: The database connection is not open\): a crash ends the process/,
    lesson: 'lessons/08-the-exercise.md#rule-5-execute-and-sort-the-failure',
    hint: 'Your step caught the simulated crash and carried on.',
  },
];

describe('each classic mistake, diagnosed as itself', () => {
  it('holds every fixture of test/fixtures/learners/mistakes/, one case each', () => {
    const folders = readdirSync(join(LEARNERS, 'mistakes')).sort();
    expect(CASES.map((c) => c.fixture).sort()).toEqual(folders);
  });

  it.each(CASES.map((c) => [c.fixture, c] as const))('%s', async (_name, c) => {
    const grade = await gradeSubmission(mistake(c.fixture), { scenarios: loadScenarios([c.scenario]), cwd: ROOT, explore: c.explored === true, replayDir: null });
    const graded = c.explored ? grade.explored[0]! : grade.scenarios[0]!;
    if (c.explored) expect(grade.scenarios[0]!.status).toBe('pass'); // all 17 as written would not see it
    expect(graded.status).toBe(c.threw ? 'error' : 'fail');
    expect(graded.problem).toMatchObject({ id: c.id, title: c.title });
    expect(graded.problem!.message).toMatch(c.message);
    expect(graded.lesson).toBe(c.lesson);
    expect(hintsFor('en', graded.problem!.id as ProblemId, 1)[0]).toMatch(new RegExp(`^${c.hint.replace(/[.?]/g, '\\$&')}`));
  });

  it('a thrown TransientError is told as the throw it is in an explored schedule too, not as the rule its run then broke', async () => {
    const grade = await gradeSubmission(mistake('throws-transient'), { scenarios: loadScenarios(['happy_path']), cwd: ROOT, replayDir: null });
    expect(grade.scenarios[0]!.status).toBe('pass');
    const explored = grade.explored[0]!;
    expect(explored.status).toBe('fail');
    expect(explored.problem).toMatchObject({ id: 'transient_thrown', where: expect.stringMatching(/^test\/fixtures\/learners\/mistakes\/throws-transient\/LearnerRunner\.ts:\d+$/) });
    expect(explored.problem!.title).toMatch(/^a TransientError thrown out of step \d+$/);
  });

  it('a correct step written very differently from the reference gets full marks on the graded set', async () => {
    const grade = await gradeSubmission(DIFFERENT, { scenarios: GRADED, cwd: ROOT, replayDir: null });
    expect(grade.scenarios.map((s) => s.id)).toEqual(GRADED.map((s) => s.id));
    expect(grade.scenarios).toHaveLength(20);
    expect([grade.passed, grade.total]).toEqual([40, 40]);
  }, 120_000);

  it('a caught crash fails the scenario although every figure came out right', async () => {
    const grade = await gradeSubmission(mistake('crash-caught'), { scenarios: loadScenarios(['crash_after_commit']), cwd: ROOT, explore: false });
    const [crash] = grade.scenarios;
    expect(crash!.wrongFigures).toEqual([]);
    expect(crash!.figures).toBe('succeeded · calls 5 · ledger 1 · stock camera 2');
    expect(crash!.status).toBe('fail');
  });

  it("titles the replay of a caught crash with that check's own title, in English and in Chinese", async () => {
    const replayDir = mkdtempSync(join(tmpdir(), 'faultlab-mistakes-'));
    try {
      const grade = await gradeSubmission(mistake('crash-caught'), { scenarios: loadScenarios(['happy_path']), cwd: ROOT, replayDir });
      expect(grade.explored[0]!.problem!.id).toBe('crash_caught');
      const replay = parse(readFileSync(grade.explored[0]!.replayFile!, 'utf8')) as { title: string; explain: string; zh: { title: string; explain: string } };
      expect(replay.title).toBe('Explored: happy_path breaks "a crash ends the step"');
      expect(replay.zh.title).toBe('探索所得：happy_path 打破了“崩溃结束这一步”');
      expect(replay.zh.explain).toContain('Runner 接住了模拟的崩溃');
    } finally {
      rmSync(replayDir, { recursive: true, force: true });
    }
  });
});
