/**
 * A failed scenario as one block of plain text: the problem, the wrong figures, the first divergence from
 * the reference, the replay command and the lesson. Exercism's per-test message, the body of a JUnit
 * failure and the classroom assertions all say it this way.
 */
import { MISTAKES } from './mistakes.js';
import { t, word, type Lang } from '../render/words/index.js';
import { divergenceText } from './divergence.js';
import type { Problem, ScenarioGrade } from './types.js';

/** A broken rule, a mistake or a figure is named before its explanation; an exception or a hang already names itself. */
export function problemLine(lang: Lang, problem: Problem): string {
  const named = problem.check !== undefined || /^(inv\d|status|calls|ledger|stock|pending|observations|crashes)/.test(problem.id) || problem.id in MISTAKES;
  return named ? t(lang, 'grade.problemLine', { title: problem.title, message: problem.message }) : word(lang, problem.message);
}

export function explainFailure(lang: Lang, grade: ScenarioGrade): string {
  if (grade.problem === null) return '';
  const lines = [problemLine(lang, grade.problem)];
  if (grade.wrongFigures.length > 0) lines.push(t(lang, 'gradeReport.explain.figures', { figures: grade.wrongFigures.map((f) => word(lang, f)).join(' · ') }));
  if (grade.part === 'explored' && grade.figures !== null) lines.push(t(lang, 'gradeReport.explain.schedules', { figures: grade.figures }));
  if (grade.divergence !== null) lines.push(t(lang, 'gradeReport.explain.divergence', { text: divergenceText(lang, grade.divergence) }));
  lines.push(t(lang, 'gradeReport.explain.replay', { command: grade.replay }));
  lines.push(t(lang, 'gradeReport.explain.lesson', { lesson: grade.lesson }));
  return lines.join('\n');
}
