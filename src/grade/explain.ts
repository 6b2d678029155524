/**
 * A failed scenario as one block of plain text: the problem, the wrong figures, the first divergence from
 * the reference, the replay command and the lesson. Exercism's per-test message, the body of a JUnit
 * failure and the classroom assertions all say it this way.
 */
import { MISTAKES } from './mistakes.js';
import type { Problem, ScenarioGrade } from './types.js';

/** A broken rule, a mistake or a figure is named before its explanation; an exception or a hang already names itself. */
export function problemLine(problem: Problem): string {
  const named = problem.check !== undefined || /^(inv\d|status|calls|ledger|stock|pending|observations|crashes)/.test(problem.id) || problem.id in MISTAKES;
  return named ? `${problem.title} — ${problem.message}` : problem.message;
}

export function explainFailure(grade: ScenarioGrade): string {
  if (grade.problem === null) return '';
  const lines = [problemLine(grade.problem)];
  if (grade.wrongFigures.length > 0) lines.push(`figures: ${grade.wrongFigures.join(' · ')}`);
  if (grade.part === 'explored' && grade.figures !== null) lines.push(`schedules: ${grade.figures}`);
  if (grade.divergence !== null) lines.push(`first divergence from the reference: ${grade.divergence.text}`);
  lines.push(`replay: ${grade.replay}`);
  lines.push(`lesson: ${grade.lesson}`);
  return lines.join('\n');
}
