/**
 * `faultlab grade [FILE_OR_DIR…]`: grade learners' runners against the scenarios, and say precisely what to
 * do next. Exit 0 only when every scenario of every submission passes, 1 otherwise, 2 for bad input.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { findSubmissions } from '../../grade/findSubmissions.js';
import { DEFAULT_TIMEOUT_MS, gradeSubmission, gradeSubmissions, ReferenceRuns } from '../../grade/gradeSubmission.js';
import { HINT_LEVELS } from '../../grade/hints.js';
import { toExercismFile } from '../../grade/reporters/exercism.js';
import { toJUnit } from '../../grade/reporters/junit.js';
import { renderClassSummary, renderFooter, renderHeader, renderScenario, renderSubmission } from '../../grade/reporters/terminal.js';
import { displayPath, shellWord } from '../../grade/replay.js';
import type { ScenarioGrade, SubmissionGrade } from '../../grade/types.js';
import { loadAll } from '../../scenario/load.js';
import { runnerScenariosOnly } from '../labRun.js';
import { chooseStyle, EXIT, UsageError, type Io } from '../io.js';
import { optionHelp, parseSeed, sharedHelp, sharedParse } from '../options.js';
import { t } from '../../core/i18n/index.js';
import { LEARNER_FILE } from '../../runner/load.js';
import { writeGradePages } from '../gradePages.js';
import { HtmlOut } from '../htmlOut.js';

/** `faultlab grade --help`, in the current language. */
export function gradeHelp(): string {
  return [
    t('help.grade.head'),
    optionHelp('--scenarios DIR', t('help.grade.scenarios')),
    optionHelp('--hint N', t('help.grade.hint')),
    optionHelp('--json FILE', t('help.grade.json')),
    optionHelp('--junit FILE', t('help.grade.junit')),
    sharedHelp('seed'),
    optionHelp('--timeout MS', t('help.grade.timeout', { ms: DEFAULT_TIMEOUT_MS })),
    sharedHelp('no-color', 'html', 'lang'),
  ].join('\n');
}

function positiveInteger(option: string, value: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > max) throw new UsageError(t('cli.grade.intBad', { option, max, given: JSON.stringify(value) }));
  return n;
}

export async function gradeCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      scenarios: { type: 'string', multiple: true },
      json: { type: 'string' },
      junit: { type: 'string' },
      hint: { type: 'string' },
      ...sharedParse('seed', 'no-color', 'html'),
      timeout: { type: 'string' },
    },
  });
  const style = chooseStyle(io, { noColor: values['no-color'] });
  const seed = parseSeed(values.seed);
  const hintLevel = positiveInteger('--hint', values.hint, 1, HINT_LEVELS);
  const timeoutMs = positiveInteger('--timeout', values.timeout, DEFAULT_TIMEOUT_MS);
  const found = findSubmissions(positionals.length > 0 ? positionals : [LEARNER_FILE], io.cwd);
  if (found.problems.length > 0) throw new UsageError(found.problems.join('\n'));
  // Paths are relative to the working directory; anything else is a scenario id.
  const scenarios = runnerScenariosOnly(loadAll(values.scenarios ?? [], { cwd: io.cwd }), 'grade');
  if (scenarios.length === 0) throw new UsageError(t('cli.grade.noScenarios', { targets: (values.scenarios ?? []).join(', ') }));

  // The command that grades the same thing again, for "more: … --hint 2".
  const sameOptions = [
    ...(values.scenarios ?? []).flatMap((s) => ['--scenarios', shellWord(s)]),
    ...(values.seed !== undefined ? ['--seed', values.seed] : []),
    ...(values.timeout !== undefined ? ['--timeout', values.timeout] : []),
  ];
  const gradeAgain = (files: string[]) =>
    files.length === 0 && sameOptions.length === 0 ? 'npm run grade --' : ['npx faultlab grade', ...files.map(shellWord), ...sameOptions].join(' ');
  const terminal = { hintLevel, gradeCommand: gradeAgain(positionals) };
  const options = { scenarios, seed, timeoutMs, cwd: io.cwd, references: new ReferenceRuns() };

  let submissions: SubmissionGrade[];
  if (found.files.length === 1) {
    // One learner: stream each scenario as it is graded, so a slow one never looks like a frozen terminal.
    const file = found.files[0]!;
    io.stdout.write(renderHeader({ file: displayPath(file, io.cwd) }, scenarios.length, seed, style));
    const shown: ScenarioGrade[] = [];
    const submission = await gradeSubmission(file, {
      ...options,
      onScenario: (grade) => {
        io.stdout.write(renderScenario(grade, shown, style));
        shown.push(grade);
      },
    });
    io.stdout.write(renderFooter(submission, style, terminal));
    submissions = [submission];
  } else {
    const concurrency = Math.min(4, availableParallelism());
    submissions = await gradeSubmissions(found.files, { ...options, concurrency });
    for (const submission of submissions) {
      io.stdout.write(renderSubmission(submission, seed, style, { ...terminal, gradeCommand: gradeAgain([submission.file]) }) + '\n');
    }
    io.stdout.write(renderClassSummary(submissions, style));
  }

  const wrote: string[] = [];
  if (values.json !== undefined) {
    writeFileSync(resolve(io.cwd, values.json), JSON.stringify(toExercismFile(submissions), null, 2) + '\n');
    wrote.push(t('cli.grade.wroteExercism', { file: values.json }));
  }
  if (values.junit !== undefined) {
    writeFileSync(resolve(io.cwd, values.junit), toJUnit(submissions, seed));
    wrote.push(t('cli.grade.wroteJUnit', { file: values.junit }));
  }
  if (values.html !== undefined) {
    const out = new HtmlOut(values.html, io.cwd);
    for (const [i, submission] of submissions.entries()) await writeGradePages(out, found.files[i]!, submission, scenarios, seed, io.cwd);
    wrote.push(t('cli.grade.wrotePages', { index: out.finish('faultlab grade', t('cli.grade.pagesSubtitle', { seed }), io.cwd) }));
  }
  if (wrote.length > 0) io.stdout.write(style.c.dim(`\n  ${t('cli.grade.wrote', { files: wrote.join(t('cli.and')) })}\n`));
  return submissions.every((s) => s.passed === s.total) ? EXIT.ok : EXIT.failed;
}
