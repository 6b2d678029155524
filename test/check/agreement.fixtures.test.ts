/**
 * One verdict (src/check/verdict.ts): the four ways to judge a runner — `faultlab run`, `faultlab explore`,
 * `faultlab grade` and the classroom assertions — agree on every scenario as written, and on the schedules with one
 * added fault, for every learner fixture. A runner that catches the simulated crash fails in all four or in none;
 * so does a runner that gets a figure wrong. Before, explore told such a runner "No schedule broke an invariant"
 * while run and grade failed it. (The mutants: agreement.mutants.test.ts.)
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gradeSubmission } from '../../src/grade/gradeSubmission.js';
import { cli } from '../support.js';
import { byClassroom, byExplore, byGrade, byRun, expectAgreement, LEARNERS, ROOT, scenarios, scratchFolder } from './agreement.js';

const scratch = scratchFolder();
afterAll(() => scratch.remove());

/** Learner fixtures that end their runs (the hostile ones that hang or kill themselves are the sandbox's tests). */
const FIXTURES = [
  'solution/LearnerRunner.ts',
  'Correct.ts',
  'NewKeyPerAttempt.ts',
  'NoBudgetCheck.ts',
  'RandomKey.ts',
  'RetriesContractErrors.ts',
  'Skeleton.ts',
  'class/catches-everything/LearnerRunner.ts',
  ...['args-changed-on-retry', 'attempt-saved-late', 'budget-checked-late', 'contract-error-retried', 'crash-caught', 'lost-reply-as-failure', 'new-key-per-attempt', 'observed-before-clearing', 'pending-dropped'].map(
    (m) => `mistakes/${m}/LearnerRunner.ts`,
  ),
];
/** Graded with their exploration too (the count of broken schedules compared with explore's). */
const GRADED_EXPLORED = new Set(['solution/LearnerRunner.ts', 'mistakes/crash-caught/LearnerRunner.ts', 'mistakes/budget-checked-late/LearnerRunner.ts', 'mistakes/pending-dropped/LearnerRunner.ts']);

describe('one verdict: run, explore, grade and the classroom agree on every learner fixture', () => {
  it('fails a runner that catches the crash everywhere: run, explore and grade name the same check', async () => {
    const file = join(scratch.dir, 'crash-caught', 'LearnerRunner.ts');
    mkdirSync(dirname(file));
    copyFileSync(join(LEARNERS, 'mistakes', 'crash-caught', 'LearnerRunner.ts'), file);
    const run = await cli(['run', 'crash_after_commit', '--json', '--runner', file]);
    const explore = await cli(['explore', 'crash_after_commit', '--json', '--workers', '1', '--out', join(scratch.dir, 'caught'), '--runner', file]);
    const grade = await gradeSubmission(file, { scenarios: scenarios.filter((s) => s.id === 'crash_after_commit'), replayDir: null, cwd: ROOT });
    const ran = JSON.parse(run.stdout) as { scenarios: Array<{ violations: Array<{ check: string }> }> };
    const explored = JSON.parse(explore.stdout) as { violations: Array<{ invariant: string }> };
    expect(run.code).toBe(1);
    expect(explore.code).toBe(1);
    expect(ran.scenarios[0]!.violations.map((v) => v.check)).toContain('crash_caught');
    expect(explored.violations.map((v) => v.invariant)).toContain('crash_caught');
    expect(grade.scenarios[0]!.problem?.check ?? grade.scenarios[0]!.problem?.id).toBe('crash_caught');
  }, 60_000);

  describe.each(FIXTURES)('%s', (fixture) => {
    const file = join(LEARNERS, fixture);
    it('gets the same verdict on every scenario as written, and the same count of broken schedules', async () => {
      const run = await byRun(file);
      const explored = await byExplore(file, join(scratch.dir, 'explore'));
      const graded = await byGrade(file, GRADED_EXPLORED.has(fixture));
      const classroom = await byClassroom(file);
      expectAgreement(run, { explored, graded, classroom });
    }, 120_000);
  });
});
