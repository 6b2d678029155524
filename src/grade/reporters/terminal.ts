/**
 * The grade as a learner reads it in a terminal: one line per scenario as written, then one per scenario
 * explored (one added fault at every point), and under a failure what broke and why, where the run left the
 * reference's path, how to replay it, and what to read. A problem already explained for an earlier scenario is
 * only named again. At the end: the fault coverage, the score and the hint ladder. For a class: one line per
 * submission as it finishes, and a table.
 */
import { pad, padStart, wrap } from '../../render/format.js';
import type { Style } from '../../render/style.js';
import { HINT_LEVELS, hintsFor } from '../hints.js';
import { allGrades, coverageOf, firstFailure, scoreOf } from '../score.js';
import type { ScenarioGrade, SubmissionGrade } from '../types.js';

const WIDTH = 100;
const INDENT = '       ';
/** Room for a scenario id; a longer one gets a line of its own above the rest. */
const ID_WIDTH = 27;
/** Failing scenarios named in the score line; more than this are only counted. */
const LIST_FAILED = 6;
/** Lines of the learner's own output shown under a failing scenario. */
const OUTPUT_LINES = 8;

export const EXPLORED_HEADING = 'with one added fault at every point (depth 1): every invariant must still hold';

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

/** `  5 lost_reply   ` — the number and the id, the id never running into what follows. */
function name(grade: ScenarioGrade): string {
  const number = padStart(String(grade.taskId), 2);
  if (grade.id.length < ID_WIDTH) return `${number} ${pad(grade.id, ID_WIDTH)}`;
  return `${number} ${grade.id}\n${' '.repeat(4 + 3 + ID_WIDTH)}`;
}

export function renderHeader(submission: { file: string }, count: number, seed: number, style: Style): string {
  return style.c.bold(`faultlab grade · ${submission.file} · ${count} scenario${count === 1 ? '' : 's'} · seed ${seed}`) + '\n';
}

/** The line above the explored part. */
export function renderExploredHeading(style: Style): string {
  return `\n  ${style.c.bold(EXPLORED_HEADING)}\n`;
}

/**
 * One scenario. `earlier` holds the scenarios already shown for this submission: a failure with the same
 * problem as one of them gets one line instead of the whole block (an explored one keeps its replay line:
 * each has its own replay file).
 */
export function renderScenario(grade: ScenarioGrade, earlier: readonly ScenarioGrade[], style: Style): string {
  const { c } = style;
  const lead = name(grade);
  if (grade.status === 'pass') return `  ${c.green('✔')} ${lead}${c.dim(grade.figures ?? '')}\n`;
  const problem = grade.problem!;
  const same = earlier.filter((g) => g.part === grade.part && g.problem !== null && g.problem.id === problem.id);
  if (grade.part === 'as_written') {
    const twin = same.find((g) => g.problem!.message === problem.message);
    if (twin !== undefined) return `  ${c.red('✘')} ${lead}${c.red(problem.title)} ${c.dim(`— the same as ${twin.id}`)}\n`;
  } else {
    const twin = same.find((g) => g.problem!.title === problem.title);
    if (twin !== undefined) {
      const figures = grade.figures !== null ? ` · ${grade.figures}` : '';
      const line = `  ${c.red('✘')} ${lead}${c.red(problem.title)} ${c.dim(`— as in ${twin.id}${figures}`)}\n`;
      // a schedule that broke a rule has its own replay file; a scenario not explored has nothing new to replay
      return problem.id === 'not_explored' ? line : `${line}${INDENT}${pad('replay', 10)}${c.cyan(grade.replay)}\n`;
    }
  }
  const lines = [`  ${c.red('✘')} ${lead}${c.red.bold(problem.title)}`];
  if (problem.thrown !== undefined && problem.message.endsWith(`: ${problem.thrown}`)) {
    // the exception's message on a line of its own, never broken in the middle of its first words
    lines.push(c.red(wrap(problem.message.slice(0, -problem.thrown.length - 1), WIDTH, INDENT)));
    lines.push(c.red(wrap(problem.thrown, WIDTH, INDENT + '  ')));
  } else {
    lines.push(c.red(wrap(problem.message, WIDTH, INDENT)));
  }
  // After an exception the figures only repeat that the run stopped; they matter when the run went its course.
  if (grade.wrongFigures.length > 0 && grade.status === 'fail') lines.push(field('figures', grade.wrongFigures.join(' · ')));
  if (grade.part === 'explored' && grade.figures !== null) lines.push(field('explored', grade.figures));
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
  const first = firstFailure(submission);
  if (first === null) return null;
  const count = allGrades(submission).filter((g) => g.problem?.id === first.problem!.id).length;
  return { grade: first, count };
}

function listed(grades: readonly ScenarioGrade[]): string {
  const failed = grades.filter((g) => g.status !== 'pass').map((g) => g.id);
  return failed.length <= LIST_FAILED ? failed.join(', ') : `${failed.length} scenarios`;
}

export function renderFooter(submission: SubmissionGrade, style: Style, options: TerminalOptions): string {
  const { c } = style;
  const { passed, total, asWritten, explored } = scoreOf(submission);
  const score = `score ${passed}/${total}`;
  const lines = [''];
  if (explored !== null) {
    const { schedules, broke } = coverageOf(submission);
    lines.push(`  fault coverage: ${schedules} schedule${schedules === 1 ? '' : 's'} with one added fault, ${broke === 0 ? c.green('none') : c.red(String(broke))} broke a rule`);
  }
  if (passed === total) {
    const how = explored === null ? 'every scenario holds, every invariant with it.' : 'every scenario holds, as written and with one added fault at every point.';
    lines.push(`  ${c.green.bold(score)} — ${how}`);
    return lines.join('\n') + '\n';
  }
  if (explored === null) {
    const failed = submission.scenarios.filter((g) => g.status !== 'pass').map((g) => g.id);
    const which = passed === 0 ? 'none passes yet' : failed.length <= LIST_FAILED ? `${failed.length} to go: ${failed.join(', ')}` : `${failed.length} to go`;
    lines.push(`  ${c.red.bold(score)} — ${which}`);
  } else {
    lines.push(`  ${c.red.bold(score)} — as written ${asWritten.passed}/${asWritten.total} · with added faults ${explored.passed}/${explored.total}${passed === 0 ? ' · none passes yet' : ''}`);
    if (passed > 0) {
      const parts = [
        ...(asWritten.passed < asWritten.total ? [`as written: ${listed(submission.scenarios)}`] : []),
        ...(explored.passed < explored.total ? [`with added faults: ${listed(submission.explored)}`] : []),
      ];
      lines.push(`  to go — ${parts.join('; ')}`);
    }
  }
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
  const parts = [renderHeader(submission, submission.scenarios.length, seed, style)];
  submission.scenarios.forEach((grade, i) => parts.push(renderScenario(grade, submission.scenarios.slice(0, i), style)));
  if (submission.explored.length > 0) parts.push(renderExploredHeading(style));
  submission.explored.forEach((grade, i) => parts.push(renderScenario(grade, submission.explored.slice(0, i), style)));
  parts.push(renderFooter(submission, style, options));
  return parts.join('');
}

/** The first problem of a submission in a few words, with where it is: `inv3 · a new key on a retry (lost_reply)`. */
export function firstProblemLine(submission: SubmissionGrade): string {
  if (submission.loadError !== null) return `could not load: ${submission.loadError.message.split('\n')[0]}`;
  const first = firstFailure(submission);
  if (first === null) return '';
  return `${first.problem!.title} (${first.id}${first.part === 'explored' ? ', with added faults' : ''})`;
}

function scoreColumns(submission: SubmissionGrade): [string, string, string] {
  const { asWritten, explored, passed, total } = scoreOf(submission);
  return [`${asWritten.passed}/${asWritten.total}`, explored === null ? '-' : `${explored.passed}/${explored.total}`, `${passed}/${total}`];
}

/** One line for a submission of a class, printed as soon as it is graded. */
export function renderSubmissionLine(submission: SubmissionGrade, style: Style): string {
  const { c } = style;
  const [asWritten, explored, score] = scoreColumns(submission);
  const ok = submission.passed === submission.total;
  const parts = `${asWritten} as written · ${explored} with added faults`;
  const problem = firstProblemLine(submission);
  return `  ${ok ? c.green('✔') : c.red('✘')} ${c.bold(submission.name)}  ${ok ? c.green(score) : c.red(score)} ${c.dim(`(${parts})`)}${problem ? `  ${problem}` : ''}\n`;
}

/** For several submissions: a table, one row each, with columns as wide as their longest entry. */
export function renderClassSummary(submissions: readonly SubmissionGrade[], seed: number, style: Style): string {
  const { c } = style;
  const head = ['submission', 'as written', 'added faults', 'score', 'first problem'];
  const rows = submissions.map((s) => [s.name, ...scoreColumns(s), firstProblemLine(s)]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const scenarios = submissions[0]?.scenarios.length ?? 0;
  const lines = ['', c.bold(`  ${submissions.length} submission${submissions.length === 1 ? '' : 's'} · ${scenarios} scenario${scenarios === 1 ? '' : 's'} · seed ${seed}`)];
  const cell = (text: string, i: number) => (i === 0 || i === 4 ? pad(text, widths[i]!) : padStart(text, widths[i]!));
  lines.push(c.dim(`    ${head.map(cell).join('  ').trimEnd()}`));
  submissions.forEach((s, index) => {
    const ok = s.passed === s.total;
    const row = rows[index]!.map(cell);
    row[3] = ok ? c.green(row[3]!) : c.red(row[3]!);
    lines.push(`  ${ok ? c.green('✔') : c.red('✘')} ${row.join('  ').trimEnd()}`);
  });
  const passedAll = submissions.filter((s) => s.passed === s.total).length;
  lines.push('', `  ${passedAll} of ${submissions.length} passed everything`);
  return lines.join('\n') + '\n';
}
