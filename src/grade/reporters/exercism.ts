/**
 * Exercism's results.json, version 3 (exercism.org/docs/building/tooling/test-runners/interface): an overall
 * status, and one test per scenario in the order graded, with its status, message, the learner's own output
 * and the task it belongs to. Top-level `error` is kept for a file that could not be loaded at all — no test
 * ran; a learner's exception or hang is that test's `error`.
 */
import { explainFailure } from '../explain.js';
import type { SubmissionGrade, TestStatus } from '../types.js';

/** The spec's cap on a test's `output`, and the message it suggests for a truncated one. */
export const OUTPUT_LIMIT = 500;
export const TRUNCATION_MARKER = 'Output was truncated. Please limit to 500 chars';

export interface ExercismTest {
  name: string;
  test_code: string;
  status: TestStatus;
  message: string | null;
  output?: string;
  /** The scenario's number: SPEC §6 numbers the fixed 17; others are numbered by their place. */
  task_id: number;
}

export interface ExercismResults {
  version: 3;
  status: TestStatus;
  message: string | null;
  tests: ExercismTest[];
}

/** At most OUTPUT_LIMIT characters (code points), the marker included when something was cut. */
export function capOutput(text: string): string {
  const chars = [...text];
  if (chars.length <= OUTPUT_LIMIT) return text;
  const keep = OUTPUT_LIMIT - TRUNCATION_MARKER.length - 1;
  return `${chars.slice(0, keep).join('')}\n${TRUNCATION_MARKER}`;
}

export function toExercism(submission: SubmissionGrade): ExercismResults {
  const tests = submission.scenarios.map((grade): ExercismTest => ({
    name: `${grade.id}: ${grade.title}`,
    test_code: `${grade.replay}\n# ${grade.summary}`,
    status: grade.status,
    message: grade.status === 'pass' ? null : explainFailure(grade),
    ...(grade.output !== '' ? { output: capOutput(grade.output) } : {}),
    task_id: grade.taskId,
  }));
  if (submission.loadError !== null) {
    return { version: 3, status: 'error', message: `could not load ${submission.file}: ${submission.loadError.message}`, tests };
  }
  return { version: 3, status: tests.every((t) => t.status === 'pass') ? 'pass' : 'fail', message: null, tests };
}

/**
 * What `--json FILE` writes: for one submission exactly its results.json; for several (a teacher grading a
 * folder), one document listing each submission with its own results.json.
 */
export function toExercismFile(submissions: readonly SubmissionGrade[]): ExercismResults | { submissions: Array<{ submission: string; results: ExercismResults }> } {
  if (submissions.length === 1) return toExercism(submissions[0]!);
  return { submissions: submissions.map((s) => ({ submission: s.file, results: toExercism(s) })) };
}
