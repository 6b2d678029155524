/** Set-up shared by the grader's tests: fixture paths, graded submissions (each graded once), the CLI in-process. */
import { join } from 'node:path';
import { INVARIANTS } from '../../src/check/invariants.js';
import { main } from '../../src/cli/main.js';
import { gradeSubmission, ReferenceRuns } from '../../src/grade/gradeSubmission.js';
import type { SubmissionGrade } from '../../src/grade/types.js';
import { loadScenarios } from '../../src/scenario/load.js';

export const ROOT = join(import.meta.dirname, '..', '..');
export const LEARNERS = join(ROOT, 'test', 'fixtures', 'learners');
export const learner = (name: string) => join(LEARNERS, `${name}.ts`);
export const STUB = join(ROOT, 'src', 'runner', 'LearnerRunner.ts');

export const SEVENTEEN = loadScenarios();
const references = new ReferenceRuns();
const graded = new Map<string, Promise<SubmissionGrade>>();

/** A fixture graded on all 17 scenarios, once per test file. */
export function gradeAll(file: string): Promise<SubmissionGrade> {
  let grade = graded.get(file);
  if (grade === undefined) {
    grade = gradeSubmission(file, { scenarios: SEVENTEEN, cwd: ROOT, references });
    graded.set(file, grade);
  }
  return grade;
}

export const failing = (grade: SubmissionGrade) => grade.scenarios.filter((s) => s.status !== 'pass').map((s) => s.id);

export interface CliOutcome {
  exit: number;
  stdout: string;
  stderr: string;
}

/** `faultlab ARGS` in-process, colour off, from the repository root (or `cwd`). */
export async function faultlab(argv: string[], cwd = ROOT): Promise<CliOutcome> {
  let stdout = '';
  let stderr = '';
  const exit = await main(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { NO_COLOR: '1' },
    isTTY: false,
    cwd,
  });
  return { exit, stdout, stderr };
}

/** How the grader names invariant n (`inv3 every attempt of …`), from the core's own table. */
export const invariantTitle = (n: number) => `inv${n} ${INVARIANTS[n - 1]!.title}`;
