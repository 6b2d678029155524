/**
 * The hint ladder and the lesson links hold what they promise: three hints for every kind of problem,
 * the skeleton of the third "not implemented" hint really passes what the first hint says it passes, and
 * every lesson the grader points to exists, down to the heading.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HINT_LEVELS, hintsFor, PROBLEM_IDS } from '../../src/grade/hints.js';
import { MISTAKE_IDS } from '../../src/grade/mistakes.js';
import { EXERCISE_SECTIONS, LESSON_FILES, lessonFor } from '../../src/grade/lessons.js';
import type { ProblemId } from '../../src/grade/types.js';
import { loadScenario, loadScenarios } from '../../src/scenario/load.js';
import { runScenario } from '../../src/classroom/runScenario.js';

/** The skeleton the hint gives, as a learner's file: it runs in its box. */
const SKELETON = 'test/fixtures/learners/Skeleton.ts';
import { parseLesson } from '../lessons/lessonDoc.js';
import { ROOT } from './helpers.js';
import { judged } from '../support.js';

const PROBLEMS: ProblemId[] = PROBLEM_IDS;
const MISTAKES: ProblemId[] = [...MISTAKE_IDS];

describe('the hint ladder', () => {
  it('has a ladder for every kind of problem, each classic mistake among them', async () => {
    expect(PROBLEMS).toEqual(expect.arrayContaining([...MISTAKES, 'process_died', 'not_explored', 'timeout', 'load_error', 'inv1_one_effect_per_intent', 'reference_fails']));
  });

  it.each(PROBLEMS)('has three distinct hints for %s, and --hint N shows the first N', async (id) => {
    const all = hintsFor('en', id, HINT_LEVELS);
    expect(all).toHaveLength(3);
    expect(new Set(all).size).toBe(3);
    expect(hintsFor('en', id, 1)).toEqual(all.slice(0, 1));
    expect(hintsFor('en', id, 2)).toEqual(all.slice(0, 2));
  });

  it('keeps its promise: the skeleton of the third hint, as a learner would type it, passes happy_path and read_only', async () => {
    const code = hintsFor('en', 'not_implemented', 3)[2]!.split('\n').filter((line) => line.startsWith('  ')).map((line) => line.trim());
    const fixture = readFileSync(join(ROOT, 'test', 'fixtures', 'learners', 'Skeleton.ts'), 'utf8');
    const body = fixture.slice(fixture.indexOf('step(state: RunnerState): RunnerState {')).split('\n').map((line) => line.trim()).filter(Boolean);
    expect(body.slice(1, 1 + code.length)).toEqual(code); // the fixture is the hint, line for line
    expect(hintsFor('en', 'not_implemented', 1)[0]).toContain('That alone passes happy_path and read_only');
    for (const id of ['happy_path', 'read_only']) expect((await runScenario(id, { runner: SKELETON })).passed, id).toBe(true);
    expect((await runScenario('transient_read', { runner: SKELETON })).passed).toBe(false); // the error handling is still to come
  });
});

describe('lesson links', () => {
  const headings = new Map<string, string[]>();
  const slugsOf = (file: string) => {
    if (!headings.has(file)) headings.set(file, parseLesson(readFileSync(join(ROOT, 'lessons', file), 'utf8')).headings.map((h) => h.slug));
    return headings.get(file)!;
  };
  const targets = [...PROBLEMS.map((id) => lessonFor(id, 'happy_path', 'en')), ...loadScenarios().map((s) => lessonFor(null, s.id, 'en'))];

  it.each([...new Set(targets)])('%s exists, down to the heading', async (target) => {
    const [file, anchor] = target.split('#') as [string, string | undefined];
    expect(existsSync(join(ROOT, 'lessons', file)), `lessons/${file}`).toBe(true);
    if (anchor !== undefined) expect(slugsOf(file)).toContain(anchor);
  });

  it('names every section of lesson 8 that the grader links to', async () => {
    expect(slugsOf(LESSON_FILES.exercise)).toEqual(expect.arrayContaining(Object.values(EXERCISE_SECTIONS)));
  });

  it('points each classic mistake to the lesson that gives its reason', async () => {
    expect(Object.fromEntries(MISTAKES.map((id) => [id, lessonFor(id, 'happy_path', 'en')]))).toEqual({
      crash_caught: '08-the-exercise.md#rule-5-execute-and-sort-the-failure',
      new_key_per_attempt: '02-idempotency-keys.md#reused-unchanged-by-every-retry',
      args_changed_on_retry: '03-fingerprint-and-version.md#the-fingerprint-does-the-key-still-mean-the-same-request',
      contract_error_retried: '06-which-errors-to-retry.md#a-contract-error-does-not-get-better-with-time',
      budget_checked_late: '06-which-errors-to-retry.md#budgets-attempts-retries-and-calls',
      cleared_after_save: '08-the-exercise.md#rule-6-record-what-the-tool-answered',
      saved_late: '04-one-transaction.md#the-gap-the-runners-save-is-another-transaction',
      pending_dropped: '05-losing-contact-after-commit.md#example-1-the-reply-is-lost-the-retry-recovers-it',
      lost_reply_as_failure: '06-which-errors-to-retry.md#a-timeout-does-not-prove-that-nothing-happened',
      finish_status_changed: '08-the-exercise.md#rule-2-decide-prepare-save',
      attempts_not_reset: '08-the-exercise.md#rule-2-decide-prepare-save',
      not_reauthorised: '08-the-exercise.md#rule-5-execute-and-sort-the-failure',
      transient_by_message: '08-the-exercise.md#rule-5-execute-and-sort-the-failure',
      transient_thrown: '08-the-exercise.md#rule-5-execute-and-sort-the-failure',
      budget_after_prepare: '08-the-exercise.md#rule-2-decide-prepare-save',
    });
  });

  it('points a broken rule to its reason and a scenario without one to its story', async () => {
    expect(lessonFor('inv3_same_key_same_args', 'lost_reply', 'en')).toBe('02-idempotency-keys.md#reused-unchanged-by-every-retry');
    expect(lessonFor('status', 'crash_before_commit', 'en')).toBe('04-one-transaction.md');
    expect(lessonFor(null, 'payload_conflict', 'en')).toBe('03-fingerprint-and-version.md');
  });
});
