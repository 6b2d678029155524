/**
 * The grade as a learner reads it in a terminal: one line per scenario, and under a failure what broke
 * and why, where the run left the reference's path, how to replay it, and what to read. A problem already
 * explained for an earlier scenario is only named again. At the end: the score and the hint ladder.
 */
import { pad, padStart, wrap } from '../../render/format.js';
import type { Style } from '../../render/style.js';
import { HINT_LEVELS, hintsFor } from '../hints.js';
import type { ScenarioGrade, SubmissionGrade } from '../types.js';

const WIDTH = 100;
const INDENT = '       ';
/** Failing scenarios named in the score line; more than this are only counted. */
const LIST_FAILED = 6;
/** Lines of the learner's own output shown under a failing scenario. */
const OUTPUT_LINES = 8;

export interface TerminalOptions {
  /** How far up the hint ladder to go (1–3). */
  hintLevel: number;
  /** The command that grades this submission again, for "more hints: … --hint 2". */
  gradeCommand: string;
}

/** A labelled line, wrapped under its label. */
function field(label: string, text: string, paint: (s: string) => string = (s) => s): string {
  const lead = INDENT + pad(label, 10);
  const lines = wrap(text, WIDTH - lead.length).split('\n');
  return lines.map((line, i) => (i === 0 ? lead : ' '.repeat(lead.length)) + paint(line)).join('\n');
}

function number(grade: ScenarioGrade): string {
  return padStart(String(grade.taskId), 2);
}

export function renderHeader(submission: { file: string }, count: number, seed: number, style: Style): string {
  return style.c.bold(`faultlab grade · ${submission.file} · ${count} scenario${count === 1 ? '' : 's'} · seed ${seed}`) + '\n';
}

/**
 * One scenario. `earlier` holds the scenarios already shown for this submission: a failure with the same
 * problem as one of them gets one line instead of the whole block.
 */
export function renderScenario(grade: ScenarioGrade, earlier: readonly ScenarioGrade[], style: Style): string {
  const { c } = style;
  const name = `${number(grade)} ${pad(grade.id, 27)}`;
  if (grade.status === 'pass') return `  ${c.green('✔')} ${name}${c.dim(grade.figures ?? '')}\n`;
  const problem = grade.problem!;
  const twin = earlier.find((g) => g.problem !== null && g.problem.id === problem.id && g.problem.message === problem.message);
  if (twin !== undefined) return `  ${c.red('✘')} ${name}${c.red(problem.title)} ${c.dim(`— the same as ${twin.id}`)}\n`;
  const lines = [`  ${c.red('✘')} ${name}${c.red.bold(problem.title)}`];
  if (problem.thrown !== undefined && problem.message.endsWith(`: ${problem.thrown}`)) {
    // the exception's message on a line of its own, never broken in the middle of its first words
    lines.push(c.red(wrap(problem.message.slice(0, -problem.thrown.length - 1), WIDTH, INDENT)));
    lines.push(c.red(wrap(problem.thrown, WIDTH, INDENT + '  ')));
  } else {
    lines.push(c.red(wrap(problem.message, WIDTH, INDENT)));
  }
  // After an exception the figures only repeat that the run stopped; they matter when the run went its course.
  if (grade.wrongFigures.length > 0 && grade.status === 'fail') lines.push(field('figures', grade.wrongFigures.join(' · ')));
  if (grade.divergence !== null) lines.push(field('diverges', grade.divergence.text, c.yellow));
  if (grade.output !== '') {
    const out = grade.output.replace(/\n$/, '').split('\n');
    const shown = out.slice(0, OUTPUT_LINES).join('\n' + ' '.repeat(INDENT.length + 10));
    lines.push(field('printed', '') + c.dim(shown) + (out.length > OUTPUT_LINES ? c.dim(` … (${out.length - OUTPUT_LINES} more lines)`) : ''));
  }
  // Commands and paths are never wrapped: they must survive a copy and paste.
  const hangs = problem.id === 'timeout' ? c.dim('   (it hangs there too: stop it with Ctrl-C)') : '';
  lines.push(INDENT + pad('replay', 10) + c.cyan(grade.replay) + hangs);
  lines.push(INDENT + pad('lesson', 10) + c.cyan(grade.lesson));
  return lines.join('\n') + '\n';
}

/** The problem to give hints for: the first failure's (scenarios run from the simplest), and how often it occurs. */
export function hintTarget(submission: SubmissionGrade): { grade: ScenarioGrade; count: number } | null {
  const first = submission.scenarios.find((g) => g.status !== 'pass');
  if (first === undefined) return null;
  const count = submission.scenarios.filter((g) => g.problem?.id === first.problem!.id).length;
  return { grade: first, count };
}

export function renderFooter(submission: SubmissionGrade, style: Style, options: TerminalOptions): string {
  const { c } = style;
  const { passed, total } = submission;
  const score = `score ${passed}/${total}`;
  const lines = [''];
  if (passed === total) {
    lines.push(`  ${c.green.bold(score)} — every scenario holds, every invariant with it.`);
    return lines.join('\n') + '\n';
  }
  const failed = submission.scenarios.filter((g) => g.status !== 'pass').map((g) => g.id);
  const which = passed === 0 ? 'none passes yet' : failed.length <= LIST_FAILED ? `${failed.length} to go: ${failed.join(', ')}` : `${failed.length} to go`;
  lines.push(`  ${c.red.bold(score)} — ${which}`);
  const target = hintTarget(submission)!;
  const level = Math.max(1, Math.min(HINT_LEVELS, options.hintLevel));
  const where = target.count > 1 ? `${target.grade.id} and ${target.count - 1} more` : target.grade.id;
  const ladder = level === 1 ? `hint 1 of ${HINT_LEVELS}` : `hints 1–${level} of ${HINT_LEVELS}`;
  lines.push('', `  ${c.bold(`${ladder} · ${target.grade.problem!.title}`)} ${c.dim(`(${where})`)}`);
  hintsFor(target.grade.problem!.id, level).forEach((hint, i) => lines.push(renderHint(hint, `    ${i + 1}. `, style)));
  if (level < HINT_LEVELS) lines.push(c.dim(`  more: ${options.gradeCommand} --hint ${level + 1}`));
  else lines.push(c.dim(`  that is the last hint; the lesson has the rest: ${target.grade.lesson}`));
  return lines.join('\n') + '\n';
}

/** Prose wrapped under its number; code lines (two leading spaces) kept as written. */
function renderHint(hint: string, lead: string, style: Style): string {
  const indent = ' '.repeat(lead.length);
  const out = hint.split('\n').map((line) => (line.startsWith('  ') ? indent + style.c.cyan(line) : wrap(line, WIDTH, indent)));
  return lead + out.join('\n').slice(lead.length);
}

/** A whole submission (the CLI streams the scenario lines instead, as they come). */
export function renderSubmission(submission: SubmissionGrade, seed: number, style: Style, options: TerminalOptions): string {
  const parts = [renderHeader(submission, submission.total, seed, style)];
  submission.scenarios.forEach((grade, i) => parts.push(renderScenario(grade, submission.scenarios.slice(0, i), style)));
  parts.push(renderFooter(submission, style, options));
  return parts.join('');
}

/** For several submissions: one line each, at the end. */
export function renderClassSummary(submissions: readonly SubmissionGrade[], style: Style): string {
  const { c } = style;
  const lines = ['', c.bold(`  ${submissions.length} submissions`)];
  for (const s of submissions) {
    const score = padStart(`${s.passed}/${s.total}`, 5);
    lines.push(`    ${s.passed === s.total ? c.green(score) : c.red(score)}  ${s.file}${s.loadError ? c.red('  (could not load)') : ''}`);
  }
  return lines.join('\n') + '\n';
}
