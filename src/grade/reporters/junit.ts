/**
 * JUnit XML, the shape CI servers and LMS importers read (Jenkins, GitLab, GitHub actions' reporters):
 * one <testsuite> per submission (named after it), one <testcase> per scenario as written and one per scenario
 * explored, all with the submission's classname. A broken rule is a <failure> whose message
 * is the rule's explanation; a learner's exception, hang or unloadable file is an <error>. The full
 * explanation (figures, divergence, replay, lesson) is the element's text; the learner's output goes to
 * <system-out>.
 */
import { explainFailure } from '../explain.js';
import { t, word, type Lang } from '../../render/words/index.js';
import { printedText } from '../../render/printed.js';
import { allGrades, scoreOf } from '../score.js';
import type { SubmissionGrade } from '../types.js';
import { element, escapeText } from './xml.js';

/**
 * The classname CI tools group by, the same for both layouts of a class: `submissions/alice/LearnerRunner.ts`
 * and `submissions/alice.ts` are both `submissions.alice`.
 */
export function className(file: string): string {
  return file
    .replace(/\.[cm]?[jt]s$/, '')
    .replace(/[/\\]LearnerRunner$/, '')
    .replace(/^[./\\]+/, '')
    .replace(/[/\\]+/g, '.');
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function suite(lang: Lang, submission: SubmissionGrade, seed: number): string {
  const grades = allGrades(submission);
  const failures = grades.filter((g) => g.status === 'fail').length;
  const errors = grades.filter((g) => g.status === 'error').length;
  const time = grades.reduce((sum, g) => sum + g.durationMs, 0);
  const score = scoreOf(submission);
  const properties = element(
    'properties',
    {},
    [
      element('property', { name: 'runner', value: submission.runnerName ?? t(lang, 'gradeReport.junit.notLoaded') }),
      element('property', { name: 'seed', value: seed }),
      element('property', { name: 'score', value: `${score.passed}/${score.total}` }),
      element('property', { name: 'as_written', value: `${score.asWritten.passed}/${score.asWritten.total}` }),
      ...(score.explored !== null ? [element('property', { name: 'explored', value: `${score.explored.passed}/${score.explored.total}` })] : []),
    ].join(''),
  );
  const cases = grades.map((grade) => {
    const children: string[] = [];
    if (grade.status !== 'pass') {
      const tag = grade.status === 'fail' ? 'failure' : 'error';
      children.push(element(tag, { message: word(lang, grade.problem!.message), type: grade.problem!.id }, escapeText(explainFailure(lang, grade))));
    }
    const output = printedText(lang, grade.output);
    if (output !== '') children.push(element('system-out', {}, escapeText(output)));
    const testName = grade.part === 'explored' ? `${grade.id} with one added fault at every point` : grade.id;
    return '    ' + element('testcase', { name: testName, classname: className(submission.file), time: seconds(grade.durationMs) }, children.length > 0 ? children.join('') : null);
  });
  const attrs = { name: submission.name, file: submission.file, tests: submission.total, failures, errors, skipped: 0, time: seconds(time) };
  return `  ${element('testsuite', attrs, `\n    ${properties}\n${cases.join('\n')}\n  `)}`;
}

/**
 * The whole document. The root's `time` is the run's wall time, given by the caller that measured it (the CLI):
 * a class is graded a few submissions at a time, so the suites' times add up to more than the run took. Without
 * it the root has no `time` (the attribute is optional) rather than a sum that claims what never happened.
 */
export function toJUnit(lang: Lang, submissions: readonly SubmissionGrade[], seed: number, run: { wallMs?: number } = {}): string {
  const count = (status: string) => submissions.reduce((n, s) => n + allGrades(s).filter((g) => g.status === status).length, 0);
  const tests = submissions.reduce((n, s) => n + s.total, 0);
  const body = `\n${submissions.map((s) => suite(lang, s, seed)).join('\n')}\n`;
  const time = run.wallMs !== undefined ? { time: seconds(run.wallMs) } : {};
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element('testsuites', { name: 'faultlab grade', tests, failures: count('fail'), errors: count('error'), ...time }, body)}\n`;
}
