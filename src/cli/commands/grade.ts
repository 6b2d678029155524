/**
 * `faultlab grade [FILE_OR_DIR…]`: grade learners' runners against the scenarios — each as written, then with one
 * added fault at every point — and say precisely what to do next. For a class: one line per submission as it is
 * graded, then a table; the files a teacher's tools read (Exercism results.json, JUnit XML). Every output path is
 * checked before anything is graded. Exit 0 only when every test of every submission passes, 1 otherwise, 2 for
 * bad input.
 */
import { accessSync, constants, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { findSubmissions, submissionNames } from '../../grade/findSubmissions.js';
import { DEFAULT_LOAD_TIMEOUT_MS, DEFAULT_REPLAY_DIR, DEFAULT_TIMEOUT_MS, gradeSubmission, gradeSubmissions, MAX_TIMEOUT_MS, ReferenceRuns } from '../../grade/gradeSubmission.js';
import { HINT_LEVELS } from '../../grade/hints.js';
import { toExercism, toExercismFile } from '../../grade/reporters/exercism.js';
import { toJUnit } from '../../grade/reporters/junit.js';
import { renderClassSummary, renderExploredHeading, renderFooter, renderHeader, renderScenario, renderSubmissionLine } from '../../grade/reporters/terminal.js';
import { displayPath, shellWord } from '../../grade/replay.js';
import type { ScenarioGrade, SubmissionGrade } from '../../grade/types.js';
import { loadAll } from '../../scenario/load.js';
import { runnerScenariosOnly } from '../labRun.js';
import { chooseStyle, EXIT, UsageError, type Io } from '../io.js';
import { inThisLanguage, optionHelp, parseSeed, sharedHelp, sharedParse } from '../options.js';
import { currentLang, t } from '../../core/i18n/index.js';
import { LEARNER_FILE, PACKAGE_ROOT, SCENARIOS_DIR } from '../../core/paths.js';
import type { Scenario } from '../../scenario/types.js';
import { isolation, missingWalls } from '../../box/isolation.js';
import { writeGradePages } from '../gradePages.js';
import { HtmlOut } from '../htmlOut.js';

/** `faultlab grade --help`, in the current language. */
export function gradeHelp(): string {
  return [
    t('help.grade.head'),
    optionHelp('--scenarios DIR', t('help.grade.scenarios')),
    optionHelp('--held-out DIR', t('help.grade.heldOut')),
    optionHelp('--no-explore', t('help.grade.noExplore')),
    optionHelp('--hint N', t('help.grade.hint')),
    optionHelp('--summary', t('help.grade.summary')),
    optionHelp('--json FILE', t('help.grade.json')),
    optionHelp('--junit FILE', t('help.grade.junit')),
    optionHelp('--results-dir DIR', t('help.grade.resultsDir')),
    optionHelp('--replays DIR', t('help.grade.replays', { dir: DEFAULT_REPLAY_DIR })),
    optionHelp('--reveal-faults', t('help.grade.revealFaults')),
    optionHelp('--jobs N', t('help.grade.jobs')),
    sharedHelp('seed'),
    optionHelp('--timeout MS', t('help.grade.timeout', { ms: DEFAULT_TIMEOUT_MS, max: MAX_TIMEOUT_MS })),
    optionHelp('--load-timeout MS', t('help.grade.loadTimeout', { ms: DEFAULT_LOAD_TIMEOUT_MS })),
    sharedHelp('no-color', 'html', 'lang'),
  ].join('\n');
}

function positiveInteger(option: string, value: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > max) throw new UsageError(t('cli.grade.intBad', { option, max, given: JSON.stringify(value) }));
  return n;
}

/** A file to be written: not a folder, in a folder that exists and can be written to. */
function checkOutputFile(option: string, value: string, cwd: string): string {
  const path = resolve(cwd, value);
  if (existsSync(path) && statSync(path).isDirectory()) throw new UsageError(t('cli.grade.out.isFolder', { option, value }));
  const folder = dirname(path);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UsageError(t('cli.grade.out.noFolder', { option, value, folder: displayPath(folder, cwd) }));
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new UsageError(t('cli.grade.out.folderReadOnly', { option, value, folder: displayPath(folder, cwd) }));
  }
  return path;
}

/** A folder to write into: made now if need be (so that a bad path fails before any grading). */
function checkOutputFolder(option: string, value: string, cwd: string): string {
  const path = resolve(cwd, value);
  try {
    mkdirSync(path, { recursive: true });
    accessSync(path, constants.W_OK);
  } catch (error) {
    throw new UsageError(t('cli.grade.out.cannotWrite', { option, value, why: (error as NodeJS.ErrnoException).code ?? (error as Error).message }));
  }
  return path;
}

/** A folder that will be made only if something is written in it: its nearest existing ancestor must take it. */
function checkLaterFolder(option: string, value: string, cwd: string): string {
  const path = resolve(cwd, value);
  let existing = path;
  while (!existsSync(existing)) existing = dirname(existing);
  const fine = statSync(existing).isDirectory() && (() => {
    try {
      accessSync(existing, constants.W_OK);
      return true;
    } catch {
      return false;
    }
  })();
  if (!fine) {
    const why = t(statSync(existing).isDirectory() ? 'cli.grade.out.notWritable' : 'cli.grade.out.isFile', { path: displayPath(existing, cwd) });
    throw new UsageError(t('cli.grade.out.cannotWrite', { option, value, why }));
  }
  return path;
}

/**
 * Where outputs must not go: onto a submission or a scenario being graded (or into a scenario's folder, where a
 * replay file would become a scenario), nor into faultlab's own files. Returns the check: the path, or UsageError.
 */
function inputsOf(submissions: readonly string[], scenarios: readonly Scenario[], cwd: string): (option: string, value: string, path: string) => string {
  const scenarioFiles = scenarios.flatMap((s) => (s.file !== undefined ? [resolve(cwd, s.file)] : []));
  const files = new Set([...submissions, ...scenarioFiles]);
  const scenarioFolders = new Set([SCENARIOS_DIR, ...scenarioFiles.map((file) => dirname(file))]);
  const own = ['src', 'dist', 'scenarios', 'node_modules'].map((folder) => join(PACKAGE_ROOT, folder));
  const inside = (path: string, folder: string) => path === folder || path.startsWith(folder + sep);
  return (option, value, path) => {
    const what = files.has(path) ? 'input' : scenarioFolders.has(path) ? 'scenarios' : own.some((folder) => inside(path, folder)) ? 'own' : null;
    if (what !== null) throw new UsageError(t(`cli.grade.out.onto.${what}`, { option, value }), { showHelp: false });
    return path;
  };
}

/** --results-dir: made now, with a folder per submission of a class where its results.json will go. */
function resultsFolder(value: string, names: readonly string[], cwd: string, onInput: (option: string, value: string, path: string) => string): string {
  const path = onInput('--results-dir', value, resolve(cwd, value));
  checkOutputFolder('--results-dir', value, cwd);
  for (const name of names.length > 1 ? names : []) {
    const folder = join(path, name);
    try {
      mkdirSync(folder, { recursive: true });
      if (existsSync(join(folder, 'results.json')) && statSync(join(folder, 'results.json')).isDirectory()) throw new Error(t('cli.grade.out.isFolder', { option: '--results-dir', value: join(name, 'results.json') }));
    } catch (error) {
      throw new UsageError(t('cli.grade.out.cannotWrite', { option: '--results-dir', value: displayPath(folder, cwd), why: (error as NodeJS.ErrnoException).code ?? (error as Error).message }), { showHelp: false });
    }
  }
  return path;
}

/** Every test needs a name of its own: a held-out scenario with the id of one already graded is refused. */
function refuseSameIds(scenarios: readonly Scenario[], selected: number, cwd: string): void {
  const first = new Map<string, Scenario>();
  scenarios.forEach((scenario, index) => {
    const earlier = first.get(scenario.id);
    if (earlier === undefined) return void first.set(scenario.id, scenario);
    const where = (s: Scenario) => (s.file !== undefined ? displayPath(resolve(cwd, s.file), cwd) : s.id);
    throw new UsageError(t('cli.grade.sameId', { option: index >= selected ? '--held-out' : '--scenarios', id: scenario.id, file: where(scenario), other: where(earlier) }), { showHelp: false });
  });
}

export async function gradeCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      scenarios: { type: 'string', multiple: true },
      'held-out': { type: 'string', multiple: true },
      'no-explore': { type: 'boolean' },
      json: { type: 'string' },
      junit: { type: 'string' },
      'results-dir': { type: 'string' },
      replays: { type: 'string' },
      'reveal-faults': { type: 'boolean' },
      summary: { type: 'boolean' },
      hint: { type: 'string' },
      jobs: { type: 'string' },
      ...sharedParse('seed', 'no-color', 'html'),
      timeout: { type: 'string' },
      'load-timeout': { type: 'string' },
    },
  });
  const style = await chooseStyle(io, { noColor: values['no-color'] });
  const seed = parseSeed(values.seed);
  const hintLevel = positiveInteger('--hint', values.hint, 1, HINT_LEVELS);
  const timeoutMs = positiveInteger('--timeout', values.timeout, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);
  const loadTimeoutMs = positiveInteger('--load-timeout', values['load-timeout'], DEFAULT_LOAD_TIMEOUT_MS, MAX_TIMEOUT_MS);
  const jobs = positiveInteger('--jobs', values.jobs, Math.min(4, availableParallelism()), 64);
  const found = findSubmissions(positionals.length > 0 ? positionals : [LEARNER_FILE], io.cwd);
  if (found.problems.length > 0) throw new UsageError(found.problems.join('\n'));
  // Paths are relative to the working directory; anything else is a scenario id.
  const selected = runnerScenariosOnly(loadAll(values.scenarios ?? [], { cwd: io.cwd }), 'grade');
  if (selected.length === 0) throw new UsageError(t('cli.grade.noScenarios', { targets: (values.scenarios ?? []).join(', ') }));
  const heldOut = values['held-out'] !== undefined ? runnerScenariosOnly(loadAll(values['held-out'], { cwd: io.cwd }), 'grade') : [];
  if (values['held-out'] !== undefined && heldOut.length === 0) throw new UsageError(t('cli.grade.noScenarios', { targets: values['held-out'].join(', ') }));
  const scenarios = [...selected, ...heldOut];
  refuseSameIds(scenarios, selected.length, io.cwd);
  const names = submissionNames(found.files);
  // Every output is checked before anything is graded — a bad path must not cost the class's results — and none
  // may land on what is graded (a submission, a scenario) or on faultlab's own files.
  const onInput = inputsOf(found.files, scenarios, io.cwd);
  const file = (option: string, value: string) => onInput(option, value, checkOutputFile(option, value, io.cwd));
  const json = values.json !== undefined ? file('--json', values.json) : undefined;
  const junit = values.junit !== undefined ? file('--junit', values.junit) : undefined;
  if (json !== undefined && json === junit) throw new UsageError(t('cli.grade.out.same', { option: '--json', other: '--junit', value: values.junit! }), { showHelp: false });
  const resultsDir = values['results-dir'] !== undefined ? resultsFolder(values['results-dir'], names, io.cwd, onInput) : undefined;
  const explore = values['no-explore'] !== true;
  const replays = explore ? onInput('--replays', values.replays ?? DEFAULT_REPLAY_DIR, checkLaterFolder('--replays', values.replays ?? DEFAULT_REPLAY_DIR, io.cwd)) : null;
  if (values.html !== undefined) onInput('--html', values.html, HtmlOut.check(values.html, io.cwd));

  // The command that grades the same thing again, for "more: … --hint 2" — in the language this grade was asked in.
  const sameOptions = [
    ...(values.scenarios ?? []).flatMap((s) => ['--scenarios', shellWord(s)]),
    ...(values['held-out'] ?? []).flatMap((s) => ['--held-out', shellWord(s)]),
    ...(explore ? [] : ['--no-explore']),
    ...(values.seed !== undefined ? ['--seed', values.seed] : []),
    ...(values.timeout !== undefined ? ['--timeout', values.timeout] : []),
    ...(values['load-timeout'] !== undefined ? ['--load-timeout', values['load-timeout']] : []),
  ];
  const gradeAgain = (files: string[]) =>
    files.length === 0 && sameOptions.length === 0
      ? (currentLang() === 'en' ? 'npm run grade --' : inThisLanguage('npm run grade'))
      : inThisLanguage(['npx faultlab grade', ...files.map(shellWord), ...sameOptions].join(' '));
  const terminal = { hintLevel, gradeCommand: gradeAgain(positionals) };
  const options = { scenarios, seed, timeoutMs, loadTimeoutMs, cwd: io.cwd, explore, references: new ReferenceRuns() };
  // One submission's replays go straight into the folder; a class's, one folder per submission.
  const replayDir = (name: string) => (replays === null ? null : found.files.length === 1 ? replays : join(replays, name));

  // Said once, plainly: what walls a submission's box does not have on this machine (README, "What a submission can and cannot do").
  const missing = missingWalls(isolation());
  if (missing.length > 0) io.stderr.write(`faultlab grade: ${t('cli.grade.isolation', { missing: missing.map((wall) => t(`cli.grade.isolation.${wall}`)).join(t('cli.listSep')) })}\n`);

  let submissions: SubmissionGrade[];
  if (found.files.length === 1) {
    // One learner: stream each scenario as it is graded, so a slow one never looks like a frozen terminal.
    const file = found.files[0]!;
    io.stdout.write(renderHeader({ file: displayPath(file, io.cwd) }, scenarios.length, seed, style));
    const shown: ScenarioGrade[] = [];
    const submission = await gradeSubmission(file, {
      ...options,
      name: names[0]!,
      replayDir: replayDir(names[0]!),
      onScenario: (grade) => {
        if (grade.part === 'explored' && !shown.some((g) => g.part === 'explored')) io.stdout.write(renderExploredHeading(style));
        io.stdout.write(renderScenario(grade, shown, style));
        shown.push(grade);
      },
    });
    io.stdout.write(renderFooter(submission, style, terminal));
    submissions = [submission];
  } else {
    submissions = await gradeSubmissions(found.files, {
      ...options,
      concurrency: jobs,
      names,
      replayDirFor: replayDir,
      onSubmission: (submission) => {
        if (values.summary !== true) io.stdout.write(renderSubmissionLine(submission, style));
      },
    });
    io.stdout.write(renderClassSummary(submissions, seed, style));
  }

  const wrote: string[] = [];
  const failed: string[] = [];
  const write = (path: string, text: string, what: string) => {
    try {
      writeFileSync(path, text);
      wrote.push(what);
    } catch (error) {
      failed.push(`${displayPath(path, io.cwd)}: ${(error as Error).message}`);
    }
  };
  const exercism = { revealFaults: values['reveal-faults'] === true };
  if (json !== undefined) write(json, JSON.stringify(toExercismFile(submissions, exercism), null, 2) + '\n', t('cli.grade.wroteExercism', { file: displayPath(json, io.cwd) }));
  if (junit !== undefined) write(junit, toJUnit(submissions, seed), t('cli.grade.wroteJUnit', { file: displayPath(junit, io.cwd) }));
  if (resultsDir !== undefined) {
    const many = submissions.length > 1;
    for (const submission of submissions) {
      const folder = many ? join(resultsDir, submission.name) : resultsDir;
      try {
        mkdirSync(folder, { recursive: true });
      } catch (error) {
        failed.push(`${displayPath(folder, io.cwd)}: ${(error as Error).message}`);
        continue;
      }
      const file = join(folder, 'results.json');
      write(file, JSON.stringify(toExercism(submission, exercism), null, 2) + '\n', displayPath(file, io.cwd));
    }
  }
  if (wrote.length > 0) io.stdout.write(style.c.dim(`\n  ${t('cli.grade.wrote', { files: wrote.join(t('cli.listSep')) })}\n`));
  if (failed.length > 0) {
    io.stderr.write(`faultlab grade: ${t('cli.grade.couldNotWrite', { files: failed.join('; ') })}\n`);
    return EXIT.badInput;
  }
  if (values.html !== undefined) {
    const out = new HtmlOut(values.html, io.cwd);
    for (const [i, submission] of submissions.entries()) await writeGradePages(out, found.files[i]!, submission, scenarios, { seed, timeoutMs, loadTimeoutMs }, io.cwd);
    io.stdout.write(style.c.dim(`  ${t('cli.grade.wrote', { files: t('cli.grade.wrotePages', { index: out.finish('faultlab grade', t('cli.grade.pagesSubtitle', { seed }), io.cwd) }) })}\n`));
  }
  return submissions.every((s) => s.passed === s.total) ? EXIT.ok : EXIT.failed;
}
