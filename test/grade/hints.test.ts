/**
 * The hint ladder and the lesson links hold what they promise: three hints for every kind of problem,
 * the skeleton of the third "not implemented" hint really passes what the first hint says it passes, and
 * every lesson the grader points to exists, down to the heading.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HINT_LEVELS, hintsFor } from '../../src/grade/hints.js';
import { EXERCISE_SECTIONS, LESSON_FILES, lessonFor } from '../../src/grade/lessons.js';
import type { ProblemId } from '../../src/grade/types.js';
import { loadScenario, loadScenarios } from '../../src/scenario/load.js';
import { LearnerRunner as Skeleton } from '../fixtures/learners/Skeleton.js';
import { parseLesson } from '../lessons/lessonDoc.js';
import { ROOT } from './helpers.js';
import { judged } from '../support.js';

const PROBLEMS: ProblemId[] = [
  'load_error', 'timeout', 'worker_crash', 'not_implemented', 'determinism', 'async_step', 'runner_error',
  'inv1_one_effect_per_intent', 'inv2_call_budget', 'inv3_same_key_same_args', 'inv4_log_rebuilds_state',
  'inv5_contract_error_changes_nothing', 'inv6_success_has_receipt', 'inv7_run_terminates',
  'status', 'calls', 'ledger', 'stock', 'pending', 'observations', 'fault_not_reached', 'reference_fails',
];

describe('the hint ladder', () => {
  it.each(PROBLEMS)('has three distinct hints for %s, and --hint N shows the first N', (id) => {
    const all = hintsFor(id, HINT_LEVELS);
    expect(all).toHaveLength(3);
    expect(new Set(all).size).toBe(3);
    expect(hintsFor(id, 1)).toEqual(all.slice(0, 1));
    expect(hintsFor(id, 2)).toEqual(all.slice(0, 2));
  });

  it('keeps its promise: the skeleton of the third hint, as a learner would type it, passes happy_path and read_only', () => {
    const code = hintsFor('not_implemented', 3)[2]!.split('\n').filter((line) => line.startsWith('  ')).map((line) => line.trim());
    const fixture = readFileSync(join(ROOT, 'test', 'fixtures', 'learners', 'Skeleton.ts'), 'utf8');
    const body = fixture.slice(fixture.indexOf('step(state: RunnerState): RunnerState {')).split('\n').map((line) => line.trim()).filter(Boolean);
    expect(body.slice(1, 1 + code.length)).toEqual(code); // the fixture is the hint, line for line
    expect(hintsFor('not_implemented', 1)[0]).toContain('that alone passes happy_path and read_only');
    for (const id of ['happy_path', 'read_only']) expect(judged(loadScenario(id), { runner: Skeleton }).passed, id).toBe(true);
    expect(judged(loadScenario('transient_read'), { runner: Skeleton }).passed).toBe(false); // the error handling is still to come
  });
});

describe('lesson links', () => {
  const headings = new Map<string, string[]>();
  const slugsOf = (file: string) => {
    if (!headings.has(file)) headings.set(file, parseLesson(readFileSync(join(ROOT, 'lessons', file), 'utf8')).headings.map((h) => h.slug));
    return headings.get(file)!;
  };
  const targets = [...PROBLEMS.map((id) => lessonFor(id, 'happy_path')), ...loadScenarios().map((s) => lessonFor(null, s.id))];

  it.each([...new Set(targets)])('%s exists, down to the heading', (target) => {
    const [file, anchor] = target.split('#') as [string, string | undefined];
    expect(existsSync(join(ROOT, 'lessons', file)), `lessons/${file}`).toBe(true);
    if (anchor !== undefined) expect(slugsOf(file)).toContain(anchor);
  });

  it('names every section of lesson 8 that the grader links to', () => {
    expect(slugsOf(LESSON_FILES.exercise)).toEqual(expect.arrayContaining(Object.values(EXERCISE_SECTIONS)));
  });

  it('points a broken rule to its reason and a scenario without one to its story', () => {
    expect(lessonFor('inv3_same_key_same_args', 'lost_reply')).toBe('02-idempotency-keys.md#reused-unchanged-by-every-retry');
    expect(lessonFor('status', 'crash_before_commit')).toBe('04-one-transaction.md');
    expect(lessonFor(null, 'payload_conflict')).toBe('03-fingerprint-and-version.md');
  });
});
