/**
 * The grade as a learner reads it in a terminal: one line per scenario as written, then one per scenario
 * explored (one added fault at every point), and under a failure what broke and why, where the run left the
 * reference's path, how to replay it, and what to read. A problem already explained for an earlier scenario is
 * only named again. At the end: the fault coverage, the score and the hint ladder. For a class: one line per
 * submission as it finishes, and a table.
 */
import { displayWidth, pad, padStart, wrap } from '../../render/format.js';
import { said, t, tn, word, type Lang } from '../../render/words/index.js';
import { printedText } from '../../render/printed.js';
import { divergenceText } from '../divergence.js';
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


export interface TerminalOptions {
  /** How far up the hint ladder to go (1–3). */
  hintLevel: number;
  /** The command that grades this submission again, for "more hints: … --hint 2". */
  gradeCommand: string;
}

type Label = 'figures' | 'explored' | 'diverges' | 'printed' | 'replay' | 'lesson';

/** A label under a failing scenario, padded to its column (measured in columns: a Chinese label is wider than its length). */
const label = (lang: Lang, name: Label) => INDENT + pad(t(lang, `gradeReport.label.${name}`), 10);

/** A labelled line, wrapped under its label. */
function field(lang: Lang, name: Label, text: string, paint: (s: string) => string = (s) => s): string {
  const lead = label(lang, name);
  const width = displayWidth(lead);
  const lines = wrap(text, WIDTH - width).split('\n');
  return lines.map((line, i) => (i === 0 ? lead : ' '.repeat(width)) + paint(line)).join('\n');
}

/** `  5 lost_reply   ` — the number and the id, the id never running into what follows. */
function name(grade: ScenarioGrade): string {
  const number = padStart(String(grade.taskId), 2);
  if (displayWidth(grade.id) < ID_WIDTH) return `${number} ${pad(grade.id, ID_WIDTH)}`;
  return `${number} ${grade.id}\n${' '.repeat(4 + 3 + ID_WIDTH)}`;
}

export function renderHeader(lang: Lang, submission: { file: string }, count: number, seed: number, style: Style): string {
  return style.c.bold(tn(lang, 'gradeReport.header', count, { file: submission.file, seed })) + '\n';
}

/** The line above the explored part. */
/** `workers`: the scenarios are many workers' (the second exercise), explored over their interleavings too. */
export function renderExploredHeading(lang: Lang, style: Style, workers = false): string {
  return `\n  ${style.c.bold(t(lang, workers ? 'gradeReport.exploredHeading.workers' : 'gradeReport.exploredHeading'))}\n`;
}

/**
 * One scenario. `earlier` holds the scenarios already shown for this submission: a failure with the same
 * problem as one of them gets one line instead of the whole block (an explored one keeps its replay line:
 * each has its own replay file).
 */
export function renderScenario(lang: Lang, grade: ScenarioGrade, earlier: readonly ScenarioGrade[], style: Style): string {
  const { c } = style;
  const lead = name(grade);
  if (grade.status === 'pass') return `  ${c.green('✔')} ${lead}${c.dim(grade.figures === null ? '' : said(lang, grade.figures))}\n`;
  const problem = grade.problem!;
  const title = said(lang, problem.title);
  const message = word(lang, problem.message);
  const same = earlier.filter((g) => g.part === grade.part && g.problem !== null && g.problem.id === problem.id);
  if (grade.part === 'as_written') {
    const twin = same.find((g) => word(lang, g.problem!.message) === message);
    if (twin !== undefined) return `  ${c.red('✘')} ${lead}${c.red(title)} ${c.dim(t(lang, 'gradeReport.sameAs', { id: twin.id }))}\n`;
  } else {
    const twin = same.find((g) => said(lang, g.problem!.title) === title);
    if (twin !== undefined) {
      const figures = grade.figures !== null ? ` · ${said(lang, grade.figures)}` : '';
      const line = `  ${c.red('✘')} ${lead}${c.red(title)} ${c.dim(t(lang, 'gradeReport.asIn', { id: twin.id, figures }))}\n`;
      // a schedule that broke a rule has its own replay file; a scenario not explored has nothing new to replay
      return problem.id === 'not_explored' ? line : `${line}${label(lang, 'replay')}${c.cyan(grade.replay)}\n`;
    }
  }
  const lines = [`  ${c.red('✘')} ${lead}${c.red.bold(title)}`];
  const thrown = problem.thrown === undefined ? undefined : said(lang, problem.thrown);
  const before = thrown !== undefined && message.endsWith(thrown) ? message.slice(0, -thrown.length).trimEnd() : null;
  if (before !== null && /[:：]$/.test(before)) {
    // the exception's message on a line of its own, never broken in the middle of its first words
    lines.push(c.red(wrap(before, WIDTH, INDENT)));
    lines.push(c.red(wrap(thrown!, WIDTH, INDENT + '  ')));
  } else {
    lines.push(c.red(wrap(message, WIDTH, INDENT)));
  }
  // After an exception the figures only repeat that the run stopped; they matter when the run went its course.
  if (grade.wrongFigures.length > 0 && grade.status === 'fail') lines.push(field(lang, 'figures', grade.wrongFigures.map((f) => word(lang, f)).join(' · ')));
  if (grade.part === 'explored' && grade.figures !== null) lines.push(field(lang, 'explored', said(lang, grade.figures)));
  if (grade.divergence !== null) lines.push(field(lang, 'diverges', divergenceText(lang, grade.divergence), c.yellow));
  const printed = printedText(lang, grade.output);
  if (printed !== '') {
    const out = printed.replace(/\n$/, '').split('\n');
    const shown = out.slice(0, OUTPUT_LINES).join('\n' + ' '.repeat(INDENT.length + 10));
    lines.push(label(lang, 'printed') + c.dim(shown) + (out.length > OUTPUT_LINES ? c.dim(t(lang, 'gradeReport.moreLines', { n: out.length - OUTPUT_LINES })) : ''));
  }
  // Commands and paths are never wrapped: they must survive a copy and paste.
  const hangs = problem.id === 'timeout' ? c.dim(t(lang, 'gradeReport.hangsToo')) : '';
  lines.push(label(lang, 'replay') + c.cyan(grade.replay) + hangs);
  lines.push(label(lang, 'lesson') + c.cyan(grade.lesson));
  return lines.join('\n') + '\n';
}

/** The problem to give hints for: the first failure's (scenarios run from the simplest), and how often it occurs. */
export function hintTarget(submission: SubmissionGrade): { grade: ScenarioGrade; count: number } | null {
  const first = firstFailure(submission);
  if (first === null) return null;
  const count = allGrades(submission).filter((g) => g.problem?.id === first.problem!.id).length;
  return { grade: first, count };
}

function listed(lang: Lang, grades: readonly ScenarioGrade[]): string {
  const failed = grades.filter((g) => g.status !== 'pass').map((g) => g.id);
  return failed.length <= LIST_FAILED ? failed.join(t(lang, 'cli.listSep')) : t(lang, 'gradeReport.scenarios', { n: failed.length });
}

export function renderFooter(lang: Lang, submission: SubmissionGrade, style: Style, options: TerminalOptions): string {
  const { c } = style;
  const { passed, total, asWritten, explored } = scoreOf(submission);
  const score = t(lang, 'gradeReport.score', { passed, total });
  const lines = [''];
  const { schedules, broke } = coverageOf(submission);
  const workers = submission.explored.some((g) => g.workers === true) ? '.workers' : '';
  // Nothing explored (a file that did not load, a stub that never reached the end): each row says why, and a
  // coverage of 0 schedules would say nothing.
  if (explored !== null && schedules > 0) {
    const coverage =
      broke === 0
        ? tn(lang, `gradeReport.coverage${workers}.none` as 'gradeReport.coverage.none', schedules, { none: c.green(t(lang, 'gradeReport.coverage.noneWord')) })
        : tn(lang, `gradeReport.coverage${workers}.some` as 'gradeReport.coverage.some', schedules, { broke: c.red(String(broke)) });
    lines.push(`  ${coverage}`);
    const held = submission.explored.filter((g) => g.coverage?.sameRunsAs !== undefined).length;
    if (held > 0) lines.push(`  ${c.dim(tn(lang, 'gradeReport.coverage.held', held))}`);
  }
  if (passed === total) {
    lines.push(`  ${t(lang, explored === null ? 'gradeReport.passed.asWritten' : workers !== '' ? 'gradeReport.passed.explored.workers' : 'gradeReport.passed.explored', { score: c.green.bold(score) })}`);
    return lines.join('\n') + '\n';
  }
  const red = c.red.bold(score);
  if (explored === null) {
    const failed = submission.scenarios.filter((g) => g.status !== 'pass').map((g) => g.id);
    const which =
      passed === 0
        ? t(lang, 'gradeReport.failed.noneYet', { score: red })
        : failed.length <= LIST_FAILED
          ? t(lang, 'gradeReport.failed.toGoList', { score: red, n: failed.length, list: failed.join(', ') })
          : t(lang, 'gradeReport.failed.toGo', { score: red, n: failed.length });
    lines.push(`  ${which}`);
  } else {
    const parts = { score: red, asWritten: `${asWritten.passed}/${asWritten.total}`, explored: `${explored.passed}/${explored.total}` };
    lines.push(`  ${t(lang, passed === 0 ? 'gradeReport.failed.partsNoneYet' : 'gradeReport.failed.parts', parts)}`);
    if (passed > 0) {
      const toGo = [
        ...(asWritten.passed < asWritten.total ? [t(lang, 'gradeReport.toGo.asWritten', { list: listed(lang, submission.scenarios) })] : []),
        ...(explored.passed < explored.total ? [t(lang, 'gradeReport.toGo.explored', { list: listed(lang, submission.explored) })] : []),
      ];
      lines.push(`  ${t(lang, 'gradeReport.toGo', { parts: toGo.join(t(lang, 'gradeReport.toGo.sep')) })}`);
    }
  }
  const target = hintTarget(submission)!;
  const level = Math.max(1, Math.min(HINT_LEVELS, options.hintLevel));
  const where = target.count > 1 ? t(lang, 'gradeReport.hint.whereMore', { id: target.grade.id, n: target.count - 1 }) : target.grade.id;
  const ladder = level === 1 ? t(lang, 'gradeReport.hint.one', { levels: HINT_LEVELS }) : t(lang, 'gradeReport.hint.upTo', { level, levels: HINT_LEVELS });
  const heading = c.bold(`${ladder} · ${said(lang, target.grade.problem!.title)}`);
  lines.push('', `  ${t(lang, 'gradeReport.hint.heading', { heading, where: c.dim(t(lang, 'gradeReport.hint.where', { where })) })}`);
  hintsFor(lang, target.grade.problem!.id, level).forEach((hint, i) => lines.push(renderHint(hint, `    ${i + 1}. `, style)));
  if (level < HINT_LEVELS) lines.push(c.dim(`  ${t(lang, 'gradeReport.hint.more', { command: `${options.gradeCommand} --hint ${level + 1}` })}`));
  else lines.push(c.dim(`  ${t(lang, 'gradeReport.hint.last', { lesson: target.grade.lesson })}`));
  return lines.join('\n') + '\n';
}

/** Prose wrapped under its number; code lines (two leading spaces) kept as written. */
function renderHint(hint: string, lead: string, style: Style): string {
  const indent = ' '.repeat(lead.length);
  const out = hint.split('\n').map((line) => (line.startsWith('  ') ? indent + style.c.cyan(line) : wrap(line, WIDTH, indent)));
  return lead + out.join('\n').slice(lead.length);
}

/** A whole submission (the CLI streams the scenario lines instead, as they come). */
export function renderSubmission(lang: Lang, submission: SubmissionGrade, seed: number, style: Style, options: TerminalOptions): string {
  const parts = [renderHeader(lang, submission, submission.scenarios.length, seed, style)];
  submission.scenarios.forEach((grade, i) => parts.push(renderScenario(lang, grade, submission.scenarios.slice(0, i), style)));
  if (submission.explored.length > 0) parts.push(renderExploredHeading(lang, style, submission.explored.some((g) => g.workers === true)));
  submission.explored.forEach((grade, i) => parts.push(renderScenario(lang, grade, submission.explored.slice(0, i), style)));
  parts.push(renderFooter(lang, submission, style, options));
  return parts.join('');
}

/** The first problem of a submission in a few words, with where it is: `inv3 · a new key on a retry (lost_reply)`. */
export function firstProblemLine(lang: Lang, submission: SubmissionGrade): string {
  if (submission.loadError !== null) return t(lang, 'gradeReport.couldNotLoad', { message: said(lang, submission.loadError.message).split('\n')[0]! });
  const first = firstFailure(submission);
  if (first === null) return '';
  return t(lang, first.part === 'explored' ? 'gradeReport.firstProblem.explored' : 'gradeReport.firstProblem', { title: first.problem!.title, id: first.id });
}

function scoreColumns(submission: SubmissionGrade): [string, string, string] {
  const { asWritten, explored, passed, total } = scoreOf(submission);
  return [`${asWritten.passed}/${asWritten.total}`, explored === null ? '-' : `${explored.passed}/${explored.total}`, `${passed}/${total}`];
}

/** One line for a submission of a class, printed as soon as it is graded. */
export function renderSubmissionLine(lang: Lang, submission: SubmissionGrade, style: Style): string {
  const { c } = style;
  const [asWritten, explored, score] = scoreColumns(submission);
  const ok = submission.passed === submission.total;
  const parts = t(lang, 'gradeReport.line.parts', { asWritten, explored });
  const problem = firstProblemLine(lang, submission);
  const scored = t(lang, 'gradeReport.line', { score: ok ? c.green(score) : c.red(score), parts: c.dim(parts) });
  return `  ${ok ? c.green('✔') : c.red('✘')} ${c.bold(submission.name)}  ${scored}${problem ? `  ${problem}` : ''}\n`;
}

/** For several submissions: a table, one row each, with columns as wide as their longest entry. */
export function renderClassSummary(lang: Lang, submissions: readonly SubmissionGrade[], seed: number, style: Style): string {
  const { c } = style;
  const head = (['submission', 'asWritten', 'explored', 'score', 'firstProblem'] as const).map((col) => t(lang, `gradeReport.class.col.${col}`));
  const rows = submissions.map((s) => [s.name, ...scoreColumns(s), firstProblemLine(lang, s)]);
  // Columns are measured in display columns: a Chinese heading or problem is twice as wide as it is long.
  const widths = head.map((h, i) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i]!))));
  const scenarios = submissions[0]?.scenarios.length ?? 0;
  const title = t(lang, 'gradeReport.class.head', { submissions: tn(lang, 'gradeReport.class.submissions', submissions.length), scenarios: tn(lang, 'gradeReport.class.scenarios', scenarios), seed });
  const lines = ['', c.bold(`  ${title}`)];
  const cell = (text: string, i: number) => (i === 0 || i === 4 ? pad(text, widths[i]!) : padStart(text, widths[i]!));
  lines.push(c.dim(`    ${head.map(cell).join('  ').trimEnd()}`));
  submissions.forEach((s, index) => {
    const ok = s.passed === s.total;
    const row = rows[index]!.map(cell);
    row[3] = ok ? c.green(row[3]!) : c.red(row[3]!);
    lines.push(`  ${ok ? c.green('✔') : c.red('✘')} ${row.join('  ').trimEnd()}`);
  });
  const passedAll = submissions.filter((s) => s.passed === s.total).length;
  lines.push('', `  ${t(lang, 'gradeReport.class.passedAll', { passed: passedAll, n: submissions.length })}`);
  return lines.join('\n') + '\n';
}

/** A class's first line, said as soon as its grading starts: how many submissions, how many at a time. */
export function renderProgressStart(lang: Lang, total: number, lanes: number, style: Style): string {
  return style.c.bold(`  ${tn(lang, 'progress.start', total, { lanes: Math.min(lanes, total) })}`) + '\n';
}

/** A duration in words, as an estimate says it: whole seconds under two minutes, whole minutes after. */
function roughly(lang: Lang, ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  return s < 120 ? t(lang, 'progress.seconds', { n: s }) : t(lang, 'progress.minutes', { n: Math.round(s / 60) });
}

/**
 * How far a class's grade has got: `3/9 graded · about 12 s left` (no estimate before the first submission is
 * graded, nor after the last). `leftMs` comes from timeLeftMs (src/grade/progress.ts).
 */
export function renderProgress(lang: Lang, done: number, total: number, leftMs: number | null): string {
  const count = t(lang, 'progress.done', { done, total });
  return leftMs === null || done >= total ? count : `${count} · ${t(lang, 'progress.left', { time: roughly(lang, leftMs) })}`;
}
