/**
 * One verdict (src/check/verdict.ts): the four ways to judge a runner — `faultlab run`, `faultlab explore`,
 * `faultlab grade` and the classroom assertions — agree on every scenario, as written and with one added fault
 * at every point, for every learner fixture and every mutant. A runner that catches the simulated crash fails in
 * all four or in none; so does a runner that gets a figure wrong. Before this test, explore told such a runner
 * "No schedule broke an invariant" while run and grade failed it.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectRun } from '../../src/classroom/expectRun.js';
import { runScenario } from '../../src/classroom/runScenario.js';
import { gradeSubmission } from '../../src/grade/gradeSubmission.js';
import { MUTANTS } from '../../src/mutants/catalogue.js';
import { InventoryTool } from '../../src/inventory/InventoryTool.js';
import { loadScenarios } from '../../src/scenario/load.js';
import { cli } from '../support.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const LEARNERS = join(ROOT, 'test', 'fixtures', 'learners');
const scenarios = loadScenarios();
const ids = scenarios.map((s) => s.id);

interface Verdicts {
  /** Per scenario as written: did it pass? */
  asWritten: Record<string, boolean>;
  /** Per scenario with one added fault at every point: schedules run, and how many broke a rule. */
  explored?: Record<string, { schedules: number; broke: number }>;
}

async function byRun(runner: string): Promise<Record<string, boolean>> {
  const out = await cli(['run', '--json', '--runner', runner]);
  const doc = JSON.parse(out.stdout) as { scenarios: Array<{ id: string; passed: boolean }> };
  return Object.fromEntries(doc.scenarios.map((s) => [s.id, s.passed]));
}

async function byExplore(runner: string): Promise<Required<Verdicts>> {
  const out = await cli(['explore', '--json', '--workers', '1', '--out', join(scratch, 'explore'), '--runner', runner]);
  const doc = JSON.parse(out.stdout) as { scenarios: Array<{ id: string; asWritten: { passed: boolean }; explored: { schedules: number; broke: number } }> };
  return {
    asWritten: Object.fromEntries(doc.scenarios.map((s) => [s.id, s.asWritten.passed])),
    explored: Object.fromEntries(doc.scenarios.map((s) => [s.id, s.explored])),
  };
}

async function byGrade(file: string, explore: boolean): Promise<Required<Verdicts>> {
  const grade = await gradeSubmission(file, { scenarios, replayDir: null, cwd: ROOT, explore });
  return {
    asWritten: Object.fromEntries(grade.scenarios.map((s) => [s.id, s.status === 'pass'])),
    // A scenario that could not be explored (its run as written never ended) has no coverage: explore runs its schedules anyway.
    explored: Object.fromEntries(grade.explored.filter((s) => s.coverage !== undefined).map((s) => [s.id, s.coverage!])),
  };
}

async function byClassroom(runner: Parameters<typeof runScenario>[1]['runner']): Promise<Record<string, boolean>> {
  const verdicts: Record<string, boolean> = {};
  for (const id of ids) {
    const run = await runScenario(id, { runner });
    let passed = true;
    try {
      expectRun(run).toPass();
    } catch {
      passed = false;
    }
    verdicts[id] = passed;
  }
  return verdicts;
}

const scratch = mkdtempSync(join(tmpdir(), 'faultlab-agreement-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * Learner fixtures that end their runs (the hostile ones that hang or kill themselves are the sandbox's tests).
 * Grading explores in a learner's process, run by run: those marked are graded with their exploration too
 * (the count of broken schedules compared with explore's), the rest as written only, to keep the test short.
 */
const EXPLORED = new Set(['solution/LearnerRunner.ts', 'mistakes/crash-caught/LearnerRunner.ts', 'mistakes/budget-checked-late/LearnerRunner.ts', 'mistakes/pending-dropped/LearnerRunner.ts']);
const FIXTURES = [
  'solution/LearnerRunner.ts',
  'Correct.ts',
  'NewKeyPerAttempt.ts',
  'NoBudgetCheck.ts',
  'RandomKey.ts',
  'RetriesContractErrors.ts',
  'Skeleton.ts',
  'class/catches-everything/LearnerRunner.ts',
  ...['args-changed-on-retry', 'attempt-saved-late', 'budget-checked-late', 'contract-error-retried', 'crash-caught', 'lost-reply-as-failure', 'new-key-per-attempt', 'pending-dropped'].map(
    (m) => `mistakes/${m}/LearnerRunner.ts`,
  ),
];

describe('one verdict: run, explore, grade and the classroom agree', () => {
  it('fails a runner that catches the crash everywhere: run, explore and grade name the same check', async () => {
    // A copy in a folder of its own: a file loaded into this process once is not loaded again as a new one.
    const file = join(scratch, 'crash-caught', 'LearnerRunner.ts');
    mkdirSync(dirname(file));
    copyFileSync(join(LEARNERS, 'mistakes', 'crash-caught', 'LearnerRunner.ts'), file);
    const run = await cli(['run', 'crash_after_commit', '--json', '--runner', file]);
    const explore = await cli(['explore', 'crash_after_commit', '--json', '--workers', '1', '--out', join(scratch, 'caught'), '--runner', file]);
    const grade = await gradeSubmission(file, { scenarios: scenarios.filter((s) => s.id === 'crash_after_commit'), replayDir: null, cwd: ROOT });
    const ran = JSON.parse(run.stdout) as { scenarios: Array<{ violations: Array<{ check: string }> }> };
    const explored = JSON.parse(explore.stdout) as { violations: Array<{ invariant: string }> };
    expect(run.code).toBe(1);
    expect(explore.code).toBe(1);
    expect(ran.scenarios[0]!.violations.map((v) => v.check)).toContain('crash_caught');
    expect(explored.violations.map((v) => v.invariant)).toContain('crash_caught');
    expect(grade.scenarios[0]!.problem?.check ?? grade.scenarios[0]!.problem?.id).toBe('crash_caught');
  }, 60_000);

  describe.each(FIXTURES)('the learner fixture %s', (fixture) => {
    const file = join(LEARNERS, fixture);
    it('gets the same verdict on every scenario as written, and the same count of broken schedules', async () => {
      // One at a time: the CLI runs in this process, and a runner file's containment is the process's own.
      const run = await byRun(file);
      const explored = await byExplore(file);
      const graded = await byGrade(file, EXPLORED.has(fixture));
      const classroom = await byClassroom(file);
      expect(Object.keys(run)).toEqual(ids);
      expect(explored.asWritten).toEqual(run);
      expect(graded.asWritten).toEqual(run);
      expect(classroom).toEqual(run);
      for (const [id, coverage] of Object.entries(graded.explored)) expect({ id, ...explored.explored[id] }).toEqual({ id, ...coverage });
    }, 120_000);
  });

  describe.each(MUTANTS.map((m) => m.name))('the mutant %s', (name) => {
    const mutant = MUTANTS.find((m) => m.name === name)!;
    it('gets the same verdict on every scenario as written, and the same count of broken schedules', async () => {
      const run = await byRun(`mutant:${name}`);
      const explored = await byExplore(`mutant:${name}`);
      expect(explored.asWritten).toEqual(run);
      // A store mutant brings its own tool, which a learner's grade never meets: only a runner mutant can be graded.
      if (mutant.tool === InventoryTool) {
        const file = join(scratch, `${name}.ts`);
        writeFileSync(file, `import { MUTANTS } from ${JSON.stringify(join(ROOT, 'src', 'mutants', 'catalogue.ts'))};\nexport const LearnerRunner = MUTANTS.find((m) => m.name === ${JSON.stringify(name)})!.runner;\n`);
        const graded = await byGrade(file, ['no_budget_check', 'pending_dropped_after_transient'].includes(name));
        const classroom = await byClassroom(mutant.runner);
        expect(graded.asWritten).toEqual(run);
        expect(classroom).toEqual(run);
        for (const [id, coverage] of Object.entries(graded.explored)) expect({ id, ...explored.explored[id] }).toEqual({ id, ...coverage });
      }
    }, 120_000);
  });

});
