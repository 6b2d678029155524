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
import { renderClassSummary, renderExploredHeading, renderFooter, renderHeader, renderScenario } from '../../grade/reporters/terminal.js';
import { displayPath, shellWord } from '../../grade/replay.js';
import type { ScenarioGrade, SubmissionGrade } from '../../grade/types.js';
import { loadAll } from '../../scenario/load.js';
import { runnerScenariosOnly } from '../labRun.js';
import { chooseStyle, EXIT, UsageError, type Io } from '../io.js';
import { inThisLanguage, optionHelp, parseDb, parseSeed, sharedHelp, sharedParse } from '../options.js';
import { t, word, type Lang } from '../../render/words/index.js';
import { GRADED_TARGETS, LEARNER_FILE, PACKAGE_ROOT, SCENARIOS_DIR } from '../../core/paths.js';
import { checkPostgres, dbShown, postgresFor } from '../postgresCheck.js';
import type { Scenario } from '../../scenario/types.js';
import { isolation, missingWalls } from '../../box/isolation.js';
import { writeGradePages } from '../gradePages.js';
import { HtmlOut } from '../htmlOut.js';
import { ClassProgress } from '../classProgress.js';

/** `faultlab grade --help`, in the language of the command line. */
export function gradeHelp(lang: Lang): string {
  return [
    t(lang, 'help.grade.head'),
    optionHelp('--scenarios DIR', t(lang, 'help.grade.scenarios')),
    optionHelp('--held-out DIR', t(lang, 'help.grade.heldOut')),
    optionHelp('--no-explore', t(lang, 'help.grade.noExplore')),
    optionHelp('--hint N', t(lang, 'help.grade.hint')),
    optionHelp('--summary', t(lang, 'help.grade.summary')),
    optionHelp('--json FILE', t(lang, 'help.grade.json')),
    optionHelp('--junit FILE', t(lang, 'help.grade.junit')),
    optionHelp('--results-dir DIR', t(lang, 'help.grade.resultsDir')),
    optionHelp('--replays DIR', t(lang, 'help.grade.replays', { dir: DEFAULT_REPLAY_DIR })),
    optionHelp('--reveal-faults', t(lang, 'help.grade.revealFaults')),
    optionHelp('--jobs N', t(lang, 'help.grade.jobs')),
    sharedHelp(lang, 'seed'),
    optionHelp('--timeout MS', t(lang, 'help.grade.timeout', { ms: DEFAULT_TIMEOUT_MS, max: MAX_TIMEOUT_MS })),
    optionHelp('--load-timeout MS', t(lang, 'help.grade.loadTimeout', { ms: DEFAULT_LOAD_TIMEOUT_MS })),
    sharedHelp(lang, 'no-color', 'html', 'db', 'lang'),
  ].join('\n');
}

function positiveInteger(lang: Lang, option: string, value: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > max) throw new UsageError(t(lang, 'cli.grade.intBad', { option, max, given: JSON.stringify(value) }));
  return n;
}

/** A file to be written: not a folder, in a folder that exists and can be written to. */
function checkOutputFile(lang: Lang, option: string, value: string, cwd: string): string {
  const path = resolve(cwd, value);
  if (existsSync(path) && statSync(path).isDirectory()) throw new UsageError(t(lang, 'cli.grade.out.isFolder', { option, value }));
  const folder = dirname(path);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UsageError(t(lang, 'cli.grade.out.noFolder', { option, value, folder: displayPath(folder, cwd) }));
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new UsageError(t(lang, 'cli.grade.out.folderReadOnly', { option, value, folder: displayPath(folder, cwd) }));
  }
  return path;
}

/** A folder to write into: made now if need be (so that a bad path fails before any grading). */
function checkOutputFolder(lang: Lang, option: string, value: string, cwd: string): string {
  const path = resolve(cwd, value);
  try {
    mkdirSync(path, { recursive: true });
    accessSync(path, constants.W_OK);
  } catch (error) {
    throw new UsageError(t(lang, 'cli.grade.out.cannotWrite', { option, value, why: (error as NodeJS.ErrnoException).code ?? (error as Error).message }));
  }
  return path;
}

/** A folder that will be made only if something is written in it: its nearest existing ancestor must take it. */
function checkLaterFolder(lang: Lang, option: string, value: string, cwd: string): string {
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
    const why = t(lang, statSync(existing).isDirectory() ? 'cli.grade.out.notWritable' : 'cli.grade.out.isFile', { path: displayPath(existing, cwd) });
    throw new UsageError(t(lang, 'cli.grade.out.cannotWrite', { option, value, why }));
  }
  return path;
}

/**
 * Where outputs must not go: onto a submission or a scenario being graded (or into a scenario's folder, where a
 * replay file would become a scenario), nor into faultlab's own files. Returns the check: the path, or UsageError.
 */
function inputsOf(lang: Lang, submissions: readonly string[], scenarios: readonly Scenario[], cwd: string): (option: string, value: string, path: string) => string {
  const scenarioFiles = scenarios.flatMap((s) => (s.file !== undefined ? [resolve(cwd, s.file)] : []));
  const files = new Set([...submissions, ...scenarioFiles]);
  const scenarioFolders = new Set([SCENARIOS_DIR, ...scenarioFiles.map((file) => dirname(file))]);
  const own = ['src', 'dist', 'scenarios', 'node_modules'].map((folder) => join(PACKAGE_ROOT, folder));
  const inside = (path: string, folder: string) => path === folder || path.startsWith(folder + sep);
  return (option, value, path) => {
    const what = files.has(path) ? 'input' : scenarioFolders.has(path) ? 'scenarios' : own.some((folder) => inside(path, folder)) ? 'own' : null;
    if (what !== null) throw new UsageError(t(lang, `cli.grade.out.onto.${what}`, { option, value }), { showHelp: false });
    return path;
  };
}

/** --results-dir: made now, with a folder per submission of a class where its results.json will go. */
function resultsFolder(lang: Lang, value: string, names: readonly string[], cwd: string, onInput: (option: string, value: string, path: string) => string): string {
  const path = onInput('--results-dir', value, resolve(cwd, value));
  checkOutputFolder(lang, '--results-dir', value, cwd);
  for (const name of names.length > 1 ? names : []) {
    const folder = join(path, name);
    try {
      mkdirSync(folder, { recursive: true });
      if (existsSync(join(folder, 'results.json')) && statSync(join(folder, 'results.json')).isDirectory()) throw new Error(t(lang, 'cli.grade.out.isFolder', { option: '--results-dir', value: join(name, 'results.json') }));
    } catch (error) {
      throw new UsageError(t(lang, 'cli.grade.out.cannotWrite', { option: '--results-dir', value: displayPath(folder, cwd), why: (error as NodeJS.ErrnoException).code ?? (error as Error).message }), { showHelp: false });
    }
  }
  return path;
}

/** Every test needs a name of its own: a held-out scenario with the id of one already graded is refused. */
function refuseSameIds(lang: Lang, scenarios: readonly Scenario[], selected: number, cwd: string): void {
  const first = new Map<string, Scenario>();
  scenarios.forEach((scenario, index) => {
    const earlier = first.get(scenario.id);
    if (earlier === undefined) return void first.set(scenario.id, scenario);
    const where = (s: Scenario) => (s.file !== undefined ? displayPath(resolve(cwd, s.file), cwd) : s.id);
    throw new UsageError(t(lang, 'cli.grade.sameId', { option: index >= selected ? '--held-out' : '--scenarios', id: scenario.id, file: where(scenario), other: where(earlier) }), { showHelp: false });
  });
}

export async function gradeCommand(argv: string[], io: Io, lang: Lang): Promise<number> {
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
      ...sharedParse('seed', 'no-color', 'html', 'db'),
      timeout: { type: 'string' },
      'load-timeout': { type: 'string' },
    },
  });
  const style = await chooseStyle(io, { noColor: values['no-color'] });
  const seed = parseSeed(lang, values.seed);
  const hintLevel = positiveInteger(lang, '--hint', values.hint, 1, HINT_LEVELS);
  const timeoutMs = positiveInteger(lang, '--timeout', values.timeout, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);
  const loadTimeoutMs = positiveInteger(lang, '--load-timeout', values['load-timeout'], DEFAULT_LOAD_TIMEOUT_MS, MAX_TIMEOUT_MS);
  const jobs = positiveInteger(lang, '--jobs', values.jobs, Math.min(4, availableParallelism()), 64);
  const found = findSubmissions(positionals.length > 0 ? positionals : [LEARNER_FILE], io.cwd);
  if (found.problems.length > 0) throw new UsageError(found.problems.map((problem) => word(lang, problem)).join('\n'));
  // Paths are relative to the working directory; anything else is a scenario id.
  const selected = runnerScenariosOnly(lang, loadAll(values.scenarios ?? GRADED_TARGETS, { cwd: io.cwd }), 'grade');
  if (selected.length === 0) throw new UsageError(t(lang, 'cli.grade.noScenarios', { targets: (values.scenarios ?? []).join(', ') }));
  const heldOut = values['held-out'] !== undefined ? runnerScenariosOnly(lang, loadAll(values['held-out'], { cwd: io.cwd }), 'grade') : [];
  if (values['held-out'] !== undefined && heldOut.length === 0) throw new UsageError(t(lang, 'cli.grade.noScenarios', { targets: values['held-out'].join(', ') }));
  const scenarios = [...selected, ...heldOut];
  refuseSameIds(lang, scenarios, selected.length, io.cwd);
  // --db postgres…: the learner's runs on PostgreSQL; the pages of --html replay on SQLite, so they are not offered there.
  const db = parseDb(lang, values.db);
  if (db.kind === 'postgres') checkPostgres(lang, db, scenarios, { '--html': values.html });
  const names = submissionNames(found.files);
  // Every output is checked before anything is graded — a bad path must not cost the class's results — and none
  // may land on what is graded (a submission, a scenario) or on faultlab's own files.
  const onInput = inputsOf(lang, found.files, scenarios, io.cwd);
  const file = (option: string, value: string) => onInput(option, value, checkOutputFile(lang, option, value, io.cwd));
  const json = values.json !== undefined ? file('--json', values.json) : undefined;
  const junit = values.junit !== undefined ? file('--junit', values.junit) : undefined;
  if (json !== undefined && json === junit) throw new UsageError(t(lang, 'cli.grade.out.same', { option: '--json', other: '--junit', value: values.junit! }), { showHelp: false });
  const resultsDir = values['results-dir'] !== undefined ? resultsFolder(lang, values['results-dir'], names, io.cwd, onInput) : undefined;
  const explore = values['no-explore'] !== true;
  const replays = explore ? onInput('--replays', values.replays ?? DEFAULT_REPLAY_DIR, checkLaterFolder(lang, '--replays', values.replays ?? DEFAULT_REPLAY_DIR, io.cwd)) : null;
  if (values.html !== undefined) onInput('--html', values.html, HtmlOut.check(lang, values.html, io.cwd));

  // The command that grades the same thing again, for "more: … --hint 2" — in the language this grade was asked in.
  const sameOptions = [
    ...(values.scenarios ?? []).flatMap((s) => ['--scenarios', shellWord(s)]),
    ...(values['held-out'] ?? []).flatMap((s) => ['--held-out', shellWord(s)]),
    ...(explore ? [] : ['--no-explore']),
    ...(values.seed !== undefined ? ['--seed', values.seed] : []),
    ...(db.kind === 'postgres' ? ['--db', shellWord(dbShown(db))] : []), // a URL's password is never printed
    ...(values.timeout !== undefined ? ['--timeout', values.timeout] : []),
    ...(values['load-timeout'] !== undefined ? ['--load-timeout', values['load-timeout']] : []),
  ];
  const gradeAgain = (files: string[]) =>
    files.length === 0 && sameOptions.length === 0
      ? (lang === 'en' ? 'npm run grade --' : inThisLanguage(lang, 'npm run grade'))
      : inThisLanguage(lang, ['npx faultlab grade', ...files.map(shellWord), ...sameOptions].join(' '));
  const terminal = { hintLevel, gradeCommand: gradeAgain(positionals) };
  // The second exercise (a file holding a worker) is graded on the many-worker scenarios, unless others are named.
  const workerScenarios = values.scenarios === undefined && values['held-out'] === undefined && db.kind === 'sqlite' ? runnerScenariosOnly(lang, loadAll([join(SCENARIOS_DIR, 'workers')], { cwd: io.cwd }), 'grade') : undefined;
  const options = { scenarios, ...(workerScenarios ? { workerScenarios } : {}), seed, timeoutMs, loadTimeoutMs, cwd: io.cwd, explore, references: new ReferenceRuns(), lang };
  // One submission's replays go straight into the folder; a class's, one folder per submission.
  const replayDir = (name: string) => (replays === null ? null : found.files.length === 1 ? replays : join(replays, name));

  // Said once, plainly: what walls a submission's box does not have on this machine (README, "What a submission can and cannot do").
  const missing = missingWalls(isolation());
  if (missing.length > 0) io.stderr.write(`faultlab grade: ${t(lang, 'cli.grade.isolation', { missing: missing.map((wall) => t(lang, `cli.grade.isolation.${wall}`)).join(t(lang, 'cli.listSep')) })}\n`);

  const on = db.kind === 'postgres' ? await postgresFor(lang, db) : null;
  try {
    const now = io.now ?? (() => performance.now());
    const began = now();
    let submissions: SubmissionGrade[];
    if (found.files.length === 1) {
      // One learner: stream each scenario as it is graded, so a slow one never looks like a frozen terminal.
      const file = found.files[0]!;
      const shown: ScenarioGrade[] = [];
      const submission = await gradeSubmission(file, {
        ...options,
        ...(on !== null ? { postgres: on.url } : {}),
        name: names[0]!,
        replayDir: replayDir(names[0]!),
        // Alone, it has the machine: its scenarios are explored by two threads (a core each), each with its box.
        threads: Math.min(2, availableParallelism()),
        // Its header once its file has said what it holds (a runner, or a worker: the nine many-worker scenarios).
        onCount: (count) => io.stdout.write(renderHeader(lang, { file: displayPath(file, io.cwd) }, count, seed, style)),
        onScenario: (grade) => {
          if (grade.part === 'explored' && !shown.some((g) => g.part === 'explored')) io.stdout.write(renderExploredHeading(lang, style, grade.workers === true));
          io.stdout.write(renderScenario(lang, grade, shown, style));
          shown.push(grade);
        },
      });
      io.stdout.write(renderFooter(lang, submission, style, terminal));
      submissions = [submission];
    } else {
      const progress = new ClassProgress(io, lang, style, found.files.length, jobs, values.summary === true, now);
      progress.begin();
      submissions = await gradeSubmissions(found.files, {
        ...options,
        ...(on !== null ? { postgres: on.url } : {}),
        concurrency: jobs,
        names,
        replayDirFor: replayDir,
        onStart: (index) => progress.started(index),
        onSubmission: (submission, index) => progress.finished(submission, index),
      });
      progress.end();
      io.stdout.write(renderClassSummary(lang, submissions, seed, style));
    }
    const wallMs = now() - began;

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
    if (json !== undefined) write(json, JSON.stringify(toExercismFile(lang, submissions, exercism), null, 2) + '\n', t(lang, 'cli.grade.wroteExercism', { file: displayPath(json, io.cwd) }));
    if (junit !== undefined) write(junit, toJUnit(lang, submissions, seed, { wallMs }), t(lang, 'cli.grade.wroteJUnit', { file: displayPath(junit, io.cwd) }));
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
        write(file, JSON.stringify(toExercism(lang, submission, exercism), null, 2) + '\n', displayPath(file, io.cwd));
      }
    }
    if (wrote.length > 0) io.stdout.write(style.c.dim(`\n  ${t(lang, 'cli.grade.wrote', { files: wrote.join(t(lang, 'cli.listSep')) })}\n`));
    if (failed.length > 0) {
      io.stderr.write(`faultlab grade: ${t(lang, 'cli.grade.couldNotWrite', { files: failed.join('; ') })}\n`);
      return EXIT.badInput;
    }
    if (values.html !== undefined) {
      const out = new HtmlOut(values.html, io.cwd, lang);
      for (const [i, submission] of submissions.entries()) await writeGradePages(lang, out, found.files[i]!, submission, scenarios, { seed, timeoutMs, loadTimeoutMs }, io.cwd);
      io.stdout.write(style.c.dim(`  ${t(lang, 'cli.grade.wrote', { files: t(lang, 'cli.grade.wrotePages', { index: out.finish('faultlab grade', t(lang, 'cli.grade.pagesSubtitle', { seed }), io.cwd) }) })}\n`));
    }
    return submissions.every((s) => s.passed === s.total) ? EXIT.ok : EXIT.failed;
  } finally {
    await on?.close(); // idle schemas dropped, an embedded server stopped
  }
}
