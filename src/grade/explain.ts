/**
 * A failed scenario as one block of plain text: the problem, the wrong figures, the first divergence from
 * the reference, the replay command and the lesson. Exercism's per-test message, the body of a JUnit
 * failure and the classroom assertions all say it this way.
 */
import { MISTAKES } from './mistakes.js';
import { t } from '../core/i18n/index.js';
import type { Problem, ScenarioGrade } from './types.js';

/** A broken rule, a mistake or a figure is named before its explanation; an exception or a hang already names itself. */
export function problemLine(problem: Problem): string {
  const named = problem.check !== undefined || /^(inv\d|status|calls|ledger|stock|pending|observations|crashes)/.test(problem.id) || problem.id in MISTAKES;
  return named ? t('grade.problemLine', { title: problem.title, message: problem.message }) : problem.message;
}

export function explainFailure(grade: ScenarioGrade): string {
  if (grade.problem === null) return '';
  const lines = [problemLine(grade.problem)];
  if (grade.wrongFigures.length > 0) lines.push(t('gradeReport.explain.figures', { figures: grade.wrongFigures.join(' · ') }));
  if (grade.part === 'explored' && grade.figures !== null) lines.push(t('gradeReport.explain.schedules', { figures: grade.figures }));
  if (grade.divergence !== null) lines.push(t('gradeReport.explain.divergence', { text: grade.divergence.text }));
  lines.push(t('gradeReport.explain.replay', { command: grade.replay }));
  lines.push(t('gradeReport.explain.lesson', { lesson: grade.lesson }));
  return lines.join('\n');
}
