/**
 * Bad input gets a clear error and nothing is lost: every problem in every file is collected, each as
 * `file:line:col: field: what is wrong`, and reported together. What is wrong is a message (codes.ts), or a
 * parser's own words taken as they are; whoever shows a problem words it (formatProblem takes the words).
 */
import { codeText, type Said } from '../core/message.js';

export interface ScenarioProblem {
  file: string;
  /** 1-based; 0 when the problem is the file itself (missing, unreadable). */
  line: number;
  col: number;
  /** Dotted path of the field, e.g. `faults[0].at.attempt` (empty for the whole document). */
  field: string;
  message: Said;
}

/** `file:line:col: field: what is wrong`, the problem's message given in words (`said`). */
export function formatProblem(problem: ScenarioProblem, said: string): string {
  const field = problem.field === '' ? '' : `${problem.field}: `;
  const where = problem.line > 0 ? `${problem.file}:${problem.line}:${problem.col}` : problem.file;
  return printable(`${where}: ${field}${said}`);
}

/**
 * A message goes to a terminal: a control character from a file (an escape sequence, a bell, a stray
 * carriage return) is shown as its code, never sent to the terminal to act on.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\ufffd]/g, (c) => (c === '\ufffd' ? '?' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

export class ScenarioError extends Error {
  override readonly name = 'ScenarioError';
  readonly code = 'INVALID_SCENARIO';
  readonly problems: ScenarioProblem[];

  constructor(problems: ScenarioProblem[]) {
    super(problems.map((problem) => formatProblem(problem, codeText(problem.message))).join('\n'));
    this.problems = problems;
  }
}
