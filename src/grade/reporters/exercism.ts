/**
 * Exercism's results.json, version 3 (exercism.org/docs/building/tooling/test-runners/interface): an overall
 * status, and one test per scenario in the order graded — each scenario as written, then each explored — with
 * its status, message, the learner's own output and the task it belongs to (the scenario's number). Top-level `error` is kept for a file that could not be loaded at all — no test
 * ran; a learner's exception or hang is that test's `error`. The messages and the comment in test_code are human
 * text, in the grade's language; keys, statuses, test names and task ids are data and the same in every language
 * (so an LMS that stores results by test name sees the same test whatever language a learner graded in).
 */
import { explainFailure } from '../explain.js';
import { t, word, type Lang } from '../../render/words/index.js';
import { printedText } from '../../render/printed.js';
import { allGrades, scoreOf, type PartScore } from '../score.js';
import type { ScenarioGrade, SubmissionGrade, TestStatus } from '../types.js';

/** The spec's cap on a test's `output`, and the message it suggests for a truncated one. */
export const OUTPUT_LIMIT = 500;
export const TRUNCATION_MARKER = 'Output was truncated. Please limit to 500 chars';

export interface ExercismTest {
  name: string;
  test_code: string;
  status: TestStatus;
  message: string | null;
  output?: string;
  /** The scenario's number: docs/spec.md §6 numbers the fixed 17; others are numbered by their place. */
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

export interface ExercismOptions {
  /** Show a held-out scenario's faults in its test_code (by default the learner sees only that it is held out). */
  revealFaults?: boolean;
}

function testCode(lang: Lang, grade: ScenarioGrade, options: ExercismOptions): string {
  const about = grade.heldOut && !options.revealFaults ? t(lang, 'gradeReport.exercism.heldOut') : word(lang, grade.summary);
  return `${grade.replay}\n# ${about}`;
}

/** One submission's results.json: a test per scenario as written, then one per scenario explored. */
export function toExercism(lang: Lang, submission: SubmissionGrade, options: ExercismOptions = {}): ExercismResults {
  const tests = allGrades(submission).map((grade): ExercismTest => {
    const output = printedText(lang, grade.output);
    return {
      name: grade.part === 'explored' ? `${grade.id} with one added fault at every point: ${grade.title}` : `${grade.id}: ${grade.title}`,
      test_code: testCode(lang, grade, options),
      status: grade.status,
      message: grade.status === 'pass' ? null : explainFailure(lang, grade),
      ...(output !== '' ? { output: capOutput(output) } : {}),
      task_id: grade.taskId,
    };
  });
  if (submission.loadError !== null) {
    return { version: 3, status: 'error', message: t(lang, 'grade.load.message', { file: submission.file, message: submission.loadError.message }), tests };
  }
  return { version: 3, status: tests.every((t) => t.status === 'pass') ? 'pass' : 'fail', message: null, tests };
}

/** A class's file: each submission with its name, its score in both parts, and its own results.json. */
export interface ExercismClassFile {
  submissions: Array<{
    submission: string;
    name: string;
    score: { passed: number; total: number; as_written: PartScore; explored: PartScore | null };
    results: ExercismResults;
  }>;
}

/**
 * What `--json FILE` writes: for one submission exactly its results.json; for several (a teacher grading a
 * folder), one document listing each submission with its own results.json.
 */
export function toExercismFile(lang: Lang, submissions: readonly SubmissionGrade[], options: ExercismOptions = {}): ExercismResults | ExercismClassFile {
  if (submissions.length === 1) return toExercism(lang, submissions[0]!, options);
  return {
    submissions: submissions.map((s) => {
      const score = scoreOf(s);
      return {
        submission: s.file,
        name: s.name,
        score: { passed: score.passed, total: score.total, as_written: score.asWritten, explored: score.explored },
        results: toExercism(lang, s, options),
      };
    }),
  };
}
