/**
 * `faultlab explore [SCENARIO…]`: every scenario under every added fault (depth 1) or pair of faults
 * (depth 2), judged by the invariants; each violation shrunk and written as a replayable scenario.
 * `--mutants`: the proof that the invariants can fail. Exit 0 when nothing broke, 1 otherwise, 2 bad input.
 */
import { parseArgs } from 'node:util';
import type { StorageKind } from '../../core/storage.js';
import { checkTempDir } from '../../core/tempDir.js';
import { explore } from '../../explore/explore.js';
import { findings } from '../../explore/findings.js';
import { huntMutant, queueCatches } from '../../explore/mutants.js';
import { defaultWorkers } from '../../explore/pool.js';
import { DEFAULT_PREEMPTIONS } from '../../explore/interleavings.js';
import { brokeOn, replayCommand, writeReplay } from '../../explore/replayFile.js';
import { explorationJson, failedAsWritten, mutantsJson, renderExploration, renderMutants, renderQueueMutants, queueMutantsJson, type MutantReport, type QueueMutantReport, type Replayed } from '../../explore/report.js';
import { LIMIT_MUTANTS, MUTANTS, QUEUE_MUTANTS, type Mutant } from '../../mutants/catalogue.js';
import { INVARIANTS } from '../../check/invariants.js';
import { LIMIT_INVARIANTS } from '../../check/limits.js';
import { usesLimits } from '../../scenario/types.js';
import { loadAll, loadScenarios } from '../../scenario/load.js';
import { SCENARIOS_DIR } from '../../core/paths.js';
import { join } from 'node:path';
import { runnerScenariosOnly } from '../labRun.js';
import type { Style } from '../../render/style.js';
import type { Scenario } from '../../scenario/types.js';
import { BadInputError, chooseStyle, EXIT, UsageError, type Io } from '../io.js';
import { optionHelp, parseDb, parseSeed, parseStorage, sharedHelp, sharedParse } from '../options.js';
import { checkPostgres, checkPostgresRunner, dbShown, namesFolder, postgresFor } from '../postgresCheck.js';
import { msg, t, type Lang } from '../../render/words/index.js';
import { checkOutDir, makeOutDir } from '../outDir.js';
import { loadRunnerOption } from '../runnerOption.js';
import type { OpenedRunner } from '../../target/runners.js';
import { LEARNER_FILE } from '../../core/paths.js';
import type { RunResult } from '../../check/RunResult.js';
import { renderRunHtml } from '../../render/html/index.js';
import { HtmlOut } from '../htmlOut.js';
import { titleOf } from '../../scenario/words.js';

/** `faultlab explore --help`, in the language of the command line. */
export function exploreHelp(lang: Lang): string {
  return [
    t(lang, 'help.explore.head'),
    sharedHelp(lang, 'runner'),
    optionHelp('--depth 1|2', t(lang, 'help.explore.depth')),
    sharedHelp(lang, 'seed'),
    optionHelp('--mutants', t(lang, 'help.explore.mutants')),
    optionHelp('--out DIR', t(lang, 'help.explore.out')),
    optionHelp('--workers N', t(lang, 'help.explore.workers')),
    optionHelp('--preemptions N', t(lang, 'help.explore.preemptions', { n: DEFAULT_PREEMPTIONS })),
    sharedHelp(lang, 'json', 'no-color', 'storage', 'db', 'html', 'lang'),
  ].join('\n');
}

/** The many-worker scenarios: the queue's mutants are hunted there when no scenario is named. */
const WORKERS_DIR = join(SCENARIOS_DIR, 'workers');

/** Pre-emptions at most: the interleavings grow about as the choices to this power (two already run hundreds). */
const MAX_PREEMPTIONS = 4;

/** Worker threads at most: more only adds start-up cost on any machine faultlab runs on. */
const MAX_WORKERS = 64;

export async function exploreCommand(argv: string[], io: Io, lang: Lang): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...sharedParse('runner', 'seed', 'json', 'no-color', 'storage', 'html', 'db'),
      depth: { type: 'string' },
      mutants: { type: 'boolean' },
      out: { type: 'string' },
      workers: { type: 'string' },
      preemptions: { type: 'string' },
    },
  });
  const style = await chooseStyle(io, { noColor: values['no-color'], json: values.json });
  const seed = parseSeed(lang, values.seed);
  const depth = values.depth === undefined ? 1 : Number(values.depth);
  if (depth !== 1 && depth !== 2) throw new UsageError(t(lang, 'cli.explore.depthBad', { given: JSON.stringify(values.depth) }));
  const workers = values.workers === undefined ? defaultWorkers() : /^\d+$/.test(values.workers) ? Number(values.workers) : NaN;
  if (!Number.isInteger(workers) || workers < 1 || workers > MAX_WORKERS) throw new UsageError(t(lang, 'cli.explore.workersBad', { max: MAX_WORKERS, given: JSON.stringify(values.workers) }));
  const preemptions = values.preemptions === undefined ? DEFAULT_PREEMPTIONS : /^\d+$/.test(values.preemptions) ? Number(values.preemptions) : NaN;
  if (!Number.isInteger(preemptions) || preemptions > MAX_PREEMPTIONS) throw new UsageError(t(lang, 'cli.explore.preemptionsBad', { max: MAX_PREEMPTIONS, given: JSON.stringify(values.preemptions) }));
  const storage = parseStorage(lang, values.storage);
  const db = parseDb(lang, values.db);
  if (storage === 'file' && db.kind === 'sqlite') checkTempDir(); // the workers make one per run: say now if none can be made
  // Checked before any work: an exploration must not end in "cannot write" after it found something.
  const out = checkOutDir(lang, '--out', values.out ?? 'faultlab-explore', io.cwd);
  if (values.html !== undefined) HtmlOut.check(lang, values.html, io.cwd); // before any exploring, not after it
  const writeIn = (dir: string) => {
    makeOutDir(lang, '--out', dir);
    return dir;
  };
  let scenarios = runnerScenariosOnly(lang, loadAll(positionals, { cwd: io.cwd }), 'explore');
  if (scenarios.length === 0) throw new UsageError(t(lang, 'cli.explore.noRunnerScenario'));
  if (db.kind === 'postgres') {
    // A scenario that runs on SQLite only is refused when named, and left out (said on stderr) of a folder's exploration.
    const folderRun = namesFolder(positionals, io.cwd);
    scenarios = checkPostgres(lang, db, scenarios, { '--storage': values.storage }, { workers: true, ...(folderRun ? { skip: (said: string) => io.stderr.write(said + '\n') } : {}) });
    // With no scenario named, every mutant is hunted, the one that breaks SQLite's own locking among them.
    if (values.mutants === true && positionals.length === 0) throw new BadInputError(t(lang, 'cli.db.mutantsQueue', { given: dbShown(db) }));
  }
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;

  if (values.mutants) {
    // On PostgreSQL every schedule of the hunt runs there, from its start, in a schema of its own.
    const on = db.kind === 'postgres' ? await postgresFor(lang, db) : null;
    try {
      if (values.runner !== undefined) throw new UsageError(t(lang, 'cli.explore.mutantsNoRunner'));
      const bar = progressBar(lang, io, t(lang, 'cli.explore.barMutants'));
      const reports: MutantReport[] = [];
      // The chapter's mutants over the chapter's scenarios of one runner; the limits' over the scenarios past the
      // chapter (docs/spec.md §13–§14), where the rule each breaks is on — every invariant hunted for must catch
      // one; the queue's on the many-worker scenarios (by default scenarios/workers).
      const chapter = scenarios.filter((scenario) => scenario.workers === undefined && !usesLimits(scenario));
      const past = scenarios.filter((scenario) => usesLimits(scenario));
      const queueScenarios = positionals.length === 0 ? loadScenarios([WORKERS_DIR]) : scenarios.filter((s) => s.workers !== undefined);
      const hunted: Array<{ mutant: Mutant; over: Scenario[] }> = [
        ...(chapter.length > 0 ? MUTANTS.map((mutant) => ({ mutant, over: chapter })) : []),
        ...(past.length > 0 ? LIMIT_MUTANTS.map((mutant) => ({ mutant, over: past })) : []),
      ];
      const invariants = [...(chapter.length > 0 ? INVARIANTS : []), ...(past.length > 0 ? LIMIT_INVARIANTS : [])];
      const queueMutants = queueScenarios.length > 0 ? QUEUE_MUTANTS : [];
      const all = hunted.length + queueMutants.length;
      const queueReports: QueueMutantReport[] = [];
      for (const [i, mutant] of queueMutants.entries()) {
        queueReports.push({ mutant, catches: await queueCatches(mutant, queueScenarios, { seed }) });
        bar?.update(i + 1, all);
      }
      for (const [i, { mutant, over }] of hunted.entries()) {
        const hunt = await huntMutant(mutant, over, { seed, storage, depth, ...(on ? { postgres: on.url } : {}) });
        bar?.update(queueMutants.length + i + 1, all);
        if (hunt.explored === null) {
          reports.push({ hunt, replay: null });
          continue;
        }
        const file = writeReplay(
          lang,
          {
            scenario: hunt.explored.scenario,
            faults: hunt.explored.minimal,
            invariant: hunt.explored.invariant,
            broke: brokeOn(hunt.explored.run, hunt.explored.invariant, hunt.explored.message),
            who: msg('cli.explore.whoMutant', { name: mutant.name }),
            prefix: mutant.name,
          },
          writeIn(out),
        );
        reports.push({ hunt, replay: replayCommand(file, `--runner mutant:${mutant.name}`, io.cwd) });
      }
      bar?.done();
      const queueJson = queueReports.length > 0 ? { queueMutants: queueMutantsJson(lang, queueReports) } : {};
      const text = (reports.length > 0 ? renderMutants(lang, reports, style, seconds(), invariants) : '') + (queueReports.length > 0 ? renderQueueMutants(lang, queueReports, style) : '');
      io.stdout.write(values.json ? JSON.stringify({ ...mutantsJson(lang, reports), ...queueJson }, null, 2) + '\n' : text);
      writePages(lang, values.html, reports.flatMap((r) => (r.hunt.explored ? [{ name: `${r.hunt.mutant.name}__${r.hunt.explored.scenario.id}`, run: r.hunt.explored.run }] : [])), io, values.json === true);
      const allCaught = reports.every((r) => r.hunt.fixed !== null || r.hunt.explored !== null) && queueReports.every((r) => r.catches.length > 0);
      return allCaught ? EXIT.ok : EXIT.failed;
    } finally {
      await on?.close();
    }
  }

  const resolved = await loadRunnerOption(lang, values.runner, io.cwd, (text) => io.stderr.write(text)); // validates the name and the file before any work
  if (db.kind === 'postgres') await checkPostgresRunner(lang, db, resolved);
  const on = db.kind === 'postgres' ? await postgresFor(lang, db) : null;
  try {
    return await exploreWith(lang, resolved, { scenarios, depth, preemptions, seed, storage, workers, out: () => writeIn(out), io, style, seconds, json: values.json === true, html: values.html, ...(on ? { postgres: on.url } : {}) });
  } finally {
    await resolved.close();
    await on?.close();
  }
}

interface ExploreRun {
  scenarios: Scenario[];
  depth: 1 | 2;
  preemptions: number;
  seed: number;
  storage: StorageKind;
  workers: number;
  /** The replay folder, made on first use. */
  out: () => string;
  io: Io;
  style: Style;
  seconds: () => number;
  json: boolean;
  /** `--html DIR`: each violation's minimal run as a page. */
  html: string | undefined;
  /** `--db postgres…`: the server every schedule runs on. */
  postgres?: string;
}

async function exploreWith(lang: Lang, resolved: OpenedRunner, { scenarios, depth, preemptions, seed, storage, workers, out, io, style, seconds, json, html, postgres }: ExploreRun): Promise<number> {
  const source = resolved.source;
  const runnerFlags =
    source.kind === 'reference' ? '' : source.kind === 'mutant' ? `--runner ${resolved.label}` : resolved.file === LEARNER_FILE ? '--runner learner' : `--runner ${replayPath(resolved.file!, io.cwd)}`;
  const bar = progressBar(lang, io, t(lang, 'cli.explore.barDepth', { depth }));
  const exploration = await explore(scenarios, { depth, preemptions, seed, storage, workers, runner: resolved, ...(postgres !== undefined ? { postgres } : {}), onProgress: (done, total) => bar?.update(done, total) });
  bar?.done();
  const replayed: Replayed[] = (await findings(exploration)).map((finding) => {
    const file = writeReplay(
      lang,
      {
        scenario: finding.scenario,
        faults: finding.minimal,
        invariant: finding.invariant,
        broke: brokeOn(finding.run, finding.invariant, finding.message),
        who: msg('cli.run.who.runner', { label: resolved.label }),
        ...(finding.scenario.workers !== undefined ? { schedule: finding.schedule } : {}),
      },
      out(),
    );
    return { finding, replay: replayCommand(file, runnerFlags, io.cwd) };
  });
  const header = { runner: resolved.label, workers, seconds: seconds() };
  io.stdout.write(json ? JSON.stringify(explorationJson(lang, exploration, replayed, header), null, 2) + '\n' : renderExploration(lang, exploration, replayed, header, style));
  writePages(lang, html, replayed.map(({ finding }) => ({ name: `${finding.scenario.id}__${finding.invariant.split('_')[0]}`, run: finding.run })), io, json);
  return replayed.length === 0 && failedAsWritten(exploration).length === 0 ? EXIT.ok : EXIT.failed;
}

/** `--html DIR`: each violation's minimal run as a timeline page, and an index (said on stderr with --json). */
function writePages(lang: Lang, dir: string | undefined, runs: Array<{ name: string; run: RunResult }>, io: Io, json: boolean): void {
  if (dir === undefined) return;
  const out = new HtmlOut(dir, io.cwd, lang);
  for (const { name, run } of runs) out.add(name, renderRunHtml(lang, run), { id: name, title: titleOf(run.scenario, lang), status: run.state?.status ?? 'none', passed: run.passed });
  const index = out.finish('faultlab explore', t(lang, 'cli.explore.pagesSubtitle', { count: runs.length }), io.cwd);
  (json ? io.stderr : io.stdout).write(t(lang, 'cli.pages', { index }) + '\n');
}

function replayPath(file: string, cwd: string): string {
  return replayCommand(file, '', cwd).replace(/^faultlab run /, '');
}

/** A progress bar on stderr for long runs — only when stderr is a terminal, so pipes and --json never see it. */
interface ProgressBar {
  update(done: number, total: number): void;
  done(): void;
}

const WIDTH = 30;

function progressBar(lang: Lang, io: Io, label: string): ProgressBar | null {
  if ((io.stderr as { isTTY?: boolean }).isTTY !== true) return null;
  let shown = -1;
  return {
    update(done, total) {
      const percent = total === 0 ? 100 : Math.floor((100 * done) / total);
      if (percent === shown) return;
      shown = percent;
      const filled = Math.round((WIDTH * percent) / 100);
      io.stderr.write(`\r  ${label} [${'█'.repeat(filled)}${'·'.repeat(WIDTH - filled)}] ${percent}% (${done}/${total})`);
    },
    done() {
      if (shown >= 0) io.stderr.write('\r\x1b[2K');
    },
  };
}
