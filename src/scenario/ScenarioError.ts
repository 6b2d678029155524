/**
 * Bad input gets a clear error and nothing is lost: every problem in every file is collected, each as
 * `file:line:col: field: what is wrong`, and reported together.
 */
export interface ScenarioProblem {
  file: string;
  /** 1-based; 0 when the problem is the file itself (missing, unreadable). */
  line: number;
  col: number;
  /** Dotted path of the field, e.g. `faults[0].at.attempt` (empty for the whole document). */
  field: string;
  message: string;
}

export function formatProblem(problem: ScenarioProblem): string {
  const field = problem.field === '' ? '' : `${problem.field}: `;
  const where = problem.line > 0 ? `${problem.file}:${problem.line}:${problem.col}` : problem.file;
  return `${where}: ${field}${problem.message}`;
}

export class ScenarioError extends Error {
  override readonly name = 'ScenarioError';
  readonly code = 'INVALID_SCENARIO';
  readonly problems: ScenarioProblem[];

  constructor(problems: ScenarioProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.problems = problems;
  }
}
